"""Challenges: race a friend who is not online, on the deal of a game already played."""
