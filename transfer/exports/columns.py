"""The league workbook's columns.

Column names are fixed English data names (documented in the README, "Exports and
imports") so scripts can rely on them, and the tournament import reads them back; flags
are ``x`` or empty, as ticked on the paper sheet. Typed-in text never becomes a formula:
every file is written by :mod:`core.tabular`, which escapes every cell.
"""

from __future__ import annotations

#: Bumped when the workbook's layout changes in a way the import must know about.
FORMAT_VERSION = 1

RANKING_COLUMNS = (
    "Place",
    "Name",
    "Club",
    "Membership number",
    "Nationality",
    "Game points",
    "Won",
    "Lost",
    "Bonus",
    "Rating",
    "Tables",
)
TEAMS_COLUMNS = (
    "Place",
    "Team",
    "Players",
    "Game points",
    "Won",
    "Lost",
    "Bonus",
    "Rating",
    "Tables",
)
RESULTS_COLUMNS = (
    "Place",
    "Name",
    "Membership number",
    "Series",
    "Table",
    "Seat",
    "Game points",
    "Won",
    "Lost",
    "Bonus",
    "Rating",
)
GAMES_COLUMNS = (
    "Series",
    "Table",
    "Deal",
    "Dealer seat",
    "Dealer",
    "Declarer seat",
    "Declarer",
    "Membership number",
    "Contract",
    "With/without",
    "Tops",
    "Hand",
    "Schneider",
    "Schneider announced",
    "Schwarz",
    "Schwarz announced",
    "Ouvert",
    "Bid",
    "Declarer card points",
    "Declarer tricks",
    "Game value",
    "Won/lost",
    "Overbid",
    "Score",
    "Passed out",
    "Irregularity by",
    "Void",
)
TOURNAMENT_COLUMNS = ("Field", "Value")
PLAYERS_COLUMNS = (
    "Player ID",
    "Name",
    "Club",
    "Membership number",
    "Nationality",
    "Team",
    "Plays from series",
    "Withdrew after series",
    "Paid",
)
#: The sheets as written: the columns above, which the tournament import requires (files of
#: before keep importing), and the player's category last (best woman, best senior).
RANKING_EXPORT_COLUMNS = (*RANKING_COLUMNS, "Category")
PLAYERS_EXPORT_COLUMNS = (*PLAYERS_COLUMNS, "Category")
TABLES_COLUMNS = (
    "Series",
    "Status",
    "Draw",
    "Draw seed",
    "Table",
    "Size",
    "Seat",
    "Player ID",
    "Name",
    "Membership number",
)
