"""Daily challenges: the day's deal of each variant, one ranked attempt each, leaderboards."""
