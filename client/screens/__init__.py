"""The app's screens: home, board, race, leaderboard."""
