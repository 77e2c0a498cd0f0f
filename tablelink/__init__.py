"""The scorekeeper's table link: one table's sheet and the form for its next deal, on a phone."""
