"""Deals worth playing: the pool of winnable deals by difficulty, and "could I have won?"."""
