"""Arenas: timed tournaments on one variant, everyone on the same sequence of deals."""
