"""Replays: a finished game stepped through move by move, by its player or, once its deal is
shown, by anyone."""
