"""A tournament's results as data: the league workbook (XLSX) and its sheets as CSV.

The workbook carries everything a league needs and everything needed to rebuild the
tournament elsewhere (``manage.py import_tournament``):

* **Ranking** - the standings of :func:`scoring.standings.standings`, one row per player;
* **Teams** - the team standings of :func:`scoring.standings.team_standings`, one row per
  team (headers only in a tournament without teams);
* **Results** - one row per player and series (table, seat, rating of that table);
* **Games** - every deal as entered, with the values the engine gave it;
* **Tournament**, **Players**, **Tables** - the settings, the registrations and the seats.

Column names are fixed English data names (documented in the README, "Exports and
imports") so scripts can rely on them; flags are ``x`` or empty, as ticked on the paper
sheet. Rows are streamed: the games are fetched in chunks straight from the database
cursor and written by openpyxl in write-only mode, so a 3,000-player tournament's
108,000 games never sit in memory at once.
"""

from __future__ import annotations

import csv
from collections.abc import Callable, Iterator
from typing import BinaryIO, TextIO

from django.db import connections

from .models import Game
from .standings import rated_seats, standings, stored_seat_totals, team_standings

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

# The games' columns as the database gives them, in the order _game_rows reads them.
_GAME_FIELDS = (
    "table__series__number",
    "table__number",
    "number",
    "dealer_seat",
    "declarer_seat",
    "table_id",
    "contract",
    "tops_kind",
    "tops",
    "hand",
    "schneider",
    "schneider_announced",
    "schwarz",
    "schwarz_announced",
    "ouvert",
    "bid",
    "declarer_points",
    "declarer_tricks",
    "value",
    "won",
    "lost",
    "overbid",
    "score",
    "passed_out",
    "irregularity",
    "voided",
)
CHUNK = 5000


def _x(flag: object) -> str | None:
    return "x" if flag else None


#: First characters that make Excel and LibreOffice read a cell as a formula.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def text(value: str | None) -> str | None:
    """A name or other typed-in text, never a formula (CSV/formula injection, OWASP).

    Text that a spreadsheet would run as a formula gets a leading apostrophe, which the
    tournament import removes again; empty text becomes an empty cell.
    """
    if not value:
        return None
    return "'" + value if value.startswith(FORMULA_STARTS) else value


def _players(tournament) -> dict[int, tuple[str, str]]:
    """player id -> (membership number, nationality) for everyone seated or registered."""
    from tournaments.models import Player

    return {
        pk: (number, nationality)
        for pk, number, nationality in Player.objects.filter(registrations__tournament=tournament).values_list(
            "pk", "membership_number", "nationality"
        )
    }


def ranking_rows(tournament) -> Iterator[tuple]:
    """The Ranking sheet: the standings, with membership number and nationality."""
    players = _players(tournament)
    for entry in standings(tournament):
        number, nationality = players.get(entry.item.player_id, ("", ""))
        r = entry.rating
        yield (
            entry.place,
            text(entry.item.name),
            text(entry.item.club),
            text(number),
            text(nationality),
            r.points,
            r.won,
            r.lost,
            r.bonus,
            r.rating,
            entry.item.tables,
        )


def team_rows(tournament) -> Iterator[tuple]:
    """The Teams sheet: each team's figures, the sums of its players'; its players best first."""
    for entry in team_standings(tournament):
        r = entry.rating
        yield (
            entry.place,
            text(entry.item.name),
            text(entry.item.players),
            r.points,
            r.won,
            r.lost,
            r.bonus,
            r.rating,
            entry.item.tables,
        )


def results_rows(tournament) -> Iterator[tuple]:
    """The Results sheet: one row per player and series, in the order of the ranking."""
    from tournaments.models import Seat, Table

    places = {entry.item.player_id: entry.place for entry in standings(tournament)}
    players = _players(tournament)
    aggregates = stored_seat_totals(Table.objects.filter(series__tournament=tournament))
    seats = Seat.objects.filter(series__tournament=tournament).values_list(
        "table_id", "number", "player_id", "table__size", "player__name", "series__number", "table__number"
    )
    lines = []
    for (_table, seat, player_id, _size, name, series, table_number), r in rated_seats(seats, aggregates):
        number = text(players.get(player_id, ("", ""))[0])
        place = places.get(player_id, 0)
        lines.append(
            (place, text(name), number, series, table_number, seat, r.points, r.won, r.lost, r.bonus, r.rating)
        )
    lines.sort(key=lambda line: (line[0], line[3]))
    yield from lines


def _seat_names(tournament) -> dict[tuple[int, int], tuple[str, str]]:
    from tournaments.models import Seat

    return {
        (table, seat): (text(name), text(number))
        for table, seat, name, number in Seat.objects.filter(series__tournament=tournament).values_list(
            "table_id", "number", "player__name", "player__membership_number"
        )
    }


def game_rows(tournament) -> Iterator[tuple]:
    """The Games sheet: every deal in series, table and deal order, fetched in chunks.

    The rows come from the database cursor without the ORM's per-row conversion (the
    values are plain integers, strings and booleans); flags are written ``x`` or empty.
    """
    names = _seat_names(tournament)
    query = (
        Game.objects.filter(table__series__tournament=tournament)
        .order_by("table__series__number", "table__number", "number")
        .values_list(*_GAME_FIELDS)
    )
    sql, params = query.query.sql_with_params()
    nobody = (None, None)
    # A server-side cursor on PostgreSQL (what QuerySet.iterator() uses), so the rows
    # arrive in chunks there too; on SQLite a plain cursor already fetches lazily.
    with connections[query.db].chunked_cursor() as cursor:
        cursor.execute(sql, params)
        while True:
            chunk = cursor.fetchmany(CHUNK)
            if not chunk:
                break
            for (
                series,
                table_number,
                deal,
                dealer,
                declarer,
                table,
                contract,
                tops_kind,
                tops,
                hand,
                schneider,
                schneider_announced,
                schwarz,
                schwarz_announced,
                ouvert,
                bid,
                points,
                tricks,
                value,
                won,
                lost,
                overbid,
                score,
                passed_out,
                irregularity,
                voided,
            ) in chunk:
                declarer_name, declarer_number = names.get((table, declarer), nobody) if declarer else nobody
                yield (
                    series,
                    table_number,
                    deal,
                    dealer,
                    names.get((table, dealer), nobody)[0],
                    declarer,
                    declarer_name,
                    declarer_number,
                    contract or None,
                    tops_kind or None,
                    tops,
                    "x" if hand else None,
                    "x" if schneider else None,
                    "x" if schneider_announced else None,
                    "x" if schwarz else None,
                    "x" if schwarz_announced else None,
                    "x" if ouvert else None,
                    bid,
                    points,
                    tricks,
                    value,
                    "won" if won else "lost" if lost else None,
                    "x" if overbid else None,
                    score,
                    "x" if passed_out else None,
                    irregularity or None,
                    "x" if voided else None,
                )


def tournament_rows(tournament) -> Iterator[tuple]:
    """The Tournament sheet: the settings needed to rebuild it, as field/value pairs."""
    fees = " ".join(f"{fee.from_lost_game}:{fee.amount}" for fee in tournament.lost_game_fees.all())
    yield ("Format", FORMAT_VERSION)
    yield ("Name", text(tournament.name))
    yield ("Date", tournament.date.isoformat())
    yield ("Venue", text(tournament.venue))
    yield ("Number of series", tournament.series_count)
    yield ("Rounds per series", tournament.rounds_per_series)
    yield ("Lot seed", tournament.lot_seed)
    yield ("Entry fee", str(tournament.entry_fee))
    yield ("List fee", str(tournament.list_fee))
    yield ("Prize pool percent", tournament.prize_pool_percent)
    yield ("Lost-game fees", fees)
    yield ("Standings public", _x(tournament.standings_public))
    # The other money tables (after the older rows, whose positions stay as they were).
    yield (
        "Passed-out fees",
        " ".join(f"{f.table_size}:{f.from_passed_out}:{f.amount}" for f in tournament.passed_out_fees.all()),
    )
    yield ("Table money", " ".join(f"{m.table_size}:{m.place}:{m.amount}" for m in tournament.table_money.all()))
    yield (
        "Prizes",
        " ".join(
            f"{p.place}:{p.percent}%" if p.percent is not None else f"{p.place}:{p.amount}"
            for p in tournament.prizes.all()
        ),
    )


def player_rows(tournament) -> Iterator[tuple]:
    """The Players sheet: every registration; Player ID is the key the Tables sheet uses."""
    from tournaments.models import Registration

    registrations = (
        Registration.objects.filter(tournament=tournament)
        .order_by("player__name", "player_id")
        .values_list(
            "player_id",
            "player__name",
            "player__club__name",
            "player__membership_number",
            "player__nationality",
            "team__name",
            "first_series",
            "withdrawn_after_series",
            "paid",
        )
    )
    for pk, name, club, number, nationality, team, first, withdrawn, paid in registrations:
        yield (pk, text(name), text(club), text(number), text(nationality), text(team), first, withdrawn, _x(paid))


def table_rows(tournament) -> Iterator[tuple]:
    """The Tables sheet: every seat of every series, with the series' status and draw."""
    from tournaments.models import Seat

    seats = (
        Seat.objects.filter(series__tournament=tournament)
        .order_by("series__number", "table__number", "number")
        .values_list(
            "series__number",
            "series__status",
            "series__method",
            "series__seed",
            "table__number",
            "table__size",
            "number",
            "player_id",
            "player__name",
            "player__membership_number",
        )
    )
    for row in seats:
        yield (*row[:8], text(row[8]), text(row[9]))


#: The sheets in workbook order: name, columns, rows. The CSV export offers the same by name.
SHEETS: dict[str, tuple[tuple[str, ...], Callable[..., Iterator[tuple]]]] = {
    "Ranking": (RANKING_COLUMNS, ranking_rows),
    "Teams": (TEAMS_COLUMNS, team_rows),
    "Results": (RESULTS_COLUMNS, results_rows),
    "Games": (GAMES_COLUMNS, game_rows),
    "Tournament": (TOURNAMENT_COLUMNS, tournament_rows),
    "Players": (PLAYERS_COLUMNS, player_rows),
    "Tables": (TABLES_COLUMNS, table_rows),
}


#: Column widths (characters) for names; other columns fit their header.
_WIDE = {"Name": 26, "Club": 26, "Team": 26, "Players": 60, "Dealer": 22, "Declarer": 22, "Value": 30, "Field": 20}


def league_xlsx(tournament, out: BinaryIO) -> None:
    """Write the whole workbook to ``out`` (a file opened for binary writing).

    openpyxl's write-only mode streams each sheet to a temporary file as rows arrive;
    the header row is bold and frozen so the columns stay readable while scrolling.
    """
    from openpyxl import Workbook
    from openpyxl.cell import WriteOnlyCell
    from openpyxl.styles import Font
    from openpyxl.utils import get_column_letter

    workbook = Workbook(write_only=True)
    bold = Font(bold=True)
    for title, (columns, rows) in SHEETS.items():
        sheet = workbook.create_sheet(title)
        sheet.freeze_panes = "A2"
        for index, name in enumerate(columns, start=1):
            width = _WIDE.get(name, max(8, len(name) + 2))
            sheet.column_dimensions[get_column_letter(index)].width = width
        header = []
        for name in columns:
            head = WriteOnlyCell(sheet, value=name)
            head.font = bold
            header.append(head)
        sheet.append(header)
        append = sheet.append
        for row in rows(tournament):
            append(row)
    workbook.save(out)


#: CSV for German Excel and LibreOffice: ";" because German Excel's list separator is
#: the semicolon (the comma is the decimal separator), and UTF-8 with a byte order mark
#: because Excel reads a CSV without one as Windows-1252 and garbles "ü" and "ß".
CSV_DELIMITER = ";"
CSV_BOM = "\ufeff"


def csv_lines(tournament, sheet: str) -> Iterator[str]:
    """One sheet as CSV text, line by line (for a streaming response)."""
    columns, rows = SHEETS[sheet]

    class _Line:
        text = ""

        def write(self, value: str) -> None:
            self.text = value

    line = _Line()
    writer = csv.writer(line, delimiter=CSV_DELIMITER, lineterminator="\r\n")
    writer.writerow(columns)
    yield CSV_BOM + line.text
    for row in rows(tournament):
        writer.writerow(row)
        yield line.text


def league_csv(tournament, sheet: str, out: TextIO) -> None:
    """Write one sheet (a key of :data:`SHEETS`) as CSV to a text stream."""
    for text in csv_lines(tournament, sheet):
        out.write(text)
