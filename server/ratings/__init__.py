"""Ratings: Glicko-2 per player and variant, updated when a rated race ends."""
