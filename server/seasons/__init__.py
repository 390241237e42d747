"""Seasons: the week's, month's and all-time boards of points per daily (docs/seasons.md)."""
