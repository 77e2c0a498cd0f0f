"""A tournament's results as data: the league workbook (XLSX) and its sheets as CSV.

The workbook carries everything a league needs and everything needed to rebuild the
tournament elsewhere (``manage.py import_tournament``):

* **Ranking** - the standings of :func:`standings.places.standings`, one row per player;
* **Teams** - the team standings of :func:`standings.places.team_standings`, one row per
  team (headers only in a tournament without teams);
* **Results** - one row per player and series (table, seat, rating of that table);
* **Games** - every deal as entered, with the values the engine gave it;
* **Tournament**, **Players**, **Tables** - the settings, the registrations and the seats.

Column names are fixed English data names (documented in the README, "Exports and
imports") so scripts can rely on them; flags are ``x`` or empty, as ticked on the paper
sheet. Rows are streamed: the games are fetched in chunks straight from the database
cursor and written by openpyxl in write-only mode, so a 3,000-player tournament's
108,000 games never sit in memory at once.

The package is split by sheet: :mod:`.columns` (the column names), :mod:`.results`
(Ranking, Teams, Results), :mod:`.games` (Games), :mod:`.tournament` (Tournament,
Players, Tables) and :mod:`.writers` (the workbook, the CSV and :data:`SHEETS`, written
by :mod:`core.tabular`, the office's one CSV and XLSX writer). Everything is importable from
``transfer.exports`` as before.
"""

from __future__ import annotations

from .columns import (
    FORMAT_VERSION,
    GAMES_COLUMNS,
    PLAYERS_COLUMNS,
    PLAYERS_EXPORT_COLUMNS,
    RANKING_COLUMNS,
    RANKING_EXPORT_COLUMNS,
    RESULTS_COLUMNS,
    TABLES_COLUMNS,
    TEAMS_COLUMNS,
    TOURNAMENT_COLUMNS,
)
from .games import CHUNK, game_rows
from .results import ranking_rows, results_rows, team_rows
from .tournament import player_rows, table_rows, tournament_rows
from .writers import SHEETS, PracticeNotExported, csv_lines, league_csv, league_xlsx, refuse_practice

__all__ = [
    "CHUNK",
    "FORMAT_VERSION",
    "GAMES_COLUMNS",
    "PLAYERS_COLUMNS",
    "PLAYERS_EXPORT_COLUMNS",
    "RANKING_COLUMNS",
    "RANKING_EXPORT_COLUMNS",
    "RESULTS_COLUMNS",
    "SHEETS",
    "TABLES_COLUMNS",
    "TEAMS_COLUMNS",
    "TOURNAMENT_COLUMNS",
    "PracticeNotExported",
    "csv_lines",
    "game_rows",
    "league_csv",
    "league_xlsx",
    "player_rows",
    "ranking_rows",
    "refuse_practice",
    "results_rows",
    "table_rows",
    "team_rows",
    "tournament_rows",
]
