"""The player's own page: where he sits, his results, his place, his rankings."""
