"""Standings, statistics and the live board: the ranking from the stored games, its pages, the public cache."""
