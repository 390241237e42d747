"""Profiles: a player's page (ratings and their history, games, streaks, places, replays)."""
