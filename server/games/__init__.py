"""Solo games in play: the game service (cache, ply rule, stuck searches, writes), its handlers."""
