"""Printed documents of a tournament, drawn directly on a reportlab canvas.

Skat is still signed on paper: the scoresheets (5.5.2), table cards with the entry
link's QR code, each player's PIN slip for confirming his sheet (5.5.3), the ranking
list and the settlement sheet with the fee account (5.5.5).
Each function loads what it prints in a fixed number of queries, whatever the number of
tables or players.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence
from typing import BinaryIO

from django.db.models import F, Prefetch

from money.ledger import SHEET_GAME_FIELDS, PrintedGame

from .cards import CardInput, CardSeat, write_cards
from .scoresheet import sheet_inputs, write_sheets
from .slips import Slip, write_slips


def _seats_prefetch() -> Prefetch:
    from tournaments.models import Seat

    return Prefetch("seats", queryset=Seat.objects.select_related("player__club").order_by("number"))


def _games_by_table(games) -> dict[int, list]:
    """The games per table in deal order: plain rows, no model instances (36,000 per series)."""
    grouped: dict[int, list] = {}
    rows = games.with_correction_reason().order_by("table_id", "number")
    for row in rows.values_list(*SHEET_GAME_FIELDS, "correction_reason"):
        game = PrintedGame._make(row)
        grouped.setdefault(game.table_id, []).append(game)
    return grouped


def series_sheets_pdf(series, *, filled: bool, out: BinaryIO) -> None:
    """All scoresheets of a series in one PDF: blank before it, filled after it.

    Three queries (tables with series and tournament, seats with players and clubs,
    games), whatever the number of tables.
    """
    from scoring.models import Game
    from tournaments.models import Table

    tables = list(
        Table.objects.filter(series=series)
        .select_related("series__tournament")
        .prefetch_related(_seats_prefetch())
        .order_by("number")
    )
    games = _games_by_table(Game.objects.filter(table__series=series)) if filled else None
    title = str(series)
    write_sheets(sheet_inputs(tables, games), out, title, practice=series.tournament.practice)


def table_sheet_pdf(table, *, filled: bool) -> bytes:
    """One table's scoresheet as PDF bytes."""
    from scoring.models import Game
    from tournaments.models import Table

    table = Table.objects.select_related("series__tournament").prefetch_related(_seats_prefetch()).get(pk=table.pk)
    games = _games_by_table(Game.objects.filter(table=table)) if filled else None
    out = io.BytesIO()
    tournament = table.series.tournament
    write_sheets(sheet_inputs([table], games), out, f"{tournament.name} - {table}", practice=tournament.practice)
    return out.getvalue()


def series_cards_pdf(
    series, *, absolute_url: Callable[[str], str], out: BinaryIO, table_numbers: Sequence[int] | None = None
) -> None:
    """The table cards of a series: two per A4 page, each with its entry link as QR code.

    ``absolute_url`` makes the link absolute (on the hall address: ``core.addresses``). No PINs:
    the whole table reads the card, so each player's PIN is on his own slip
    (:func:`series_pin_slips_pdf`). Two queries, whatever the number of tables.
    """
    from tournaments.models import Table

    tables = Table.objects.filter(series=series).prefetch_related(_seats_prefetch()).order_by("number")
    if table_numbers is not None:  # the tables changed after the draw (draw.seating)
        tables = tables.filter(number__in=list(table_numbers))
    name = series.tournament.name
    cards = [
        CardInput(
            tournament=name,
            series=series.number,
            table=table.number,
            size=table.size,
            url=absolute_url(table.entry_url()),
            control_url=absolute_url(table.control_url()),
            seats=tuple(
                CardSeat(s.number, s.player.name, s.player.club.name if s.player.club_id else "")
                for s in table.seats.all()
            ),
        )
        for table in tables
    ]
    write_cards(cards, out, str(series), practice=series.tournament.practice)


def series_pin_slips_pdf(
    series,
    *,
    pin: Callable[[object, int], str],
    out: BinaryIO,
    table_number: int | None = None,
    table_numbers: Sequence[int] | None = None,
) -> None:
    """A PIN slip for every seated player of a series, or of table ``table_number`` only
    (or of the tables ``table_numbers``).

    ``pin(table, seat_number)`` gives a seat's PIN (``signoff.pins.seat_pin``), which each
    player types to confirm his table's sheet himself (5.5.3). Slips in table and seat
    order. Two queries, whatever the number of tables.
    """
    from tournaments.models import Table

    tables = Table.objects.filter(series=series)
    if table_number is not None:
        tables = tables.filter(number=table_number)
    if table_numbers is not None:
        tables = tables.filter(number__in=list(table_numbers))
    tables = list(tables.prefetch_related(_seats_prefetch()).order_by("number"))
    name = series.tournament.name
    slips = [
        [
            Slip(name, series.number, table.number, s.number, s.player.name, pin(table, s.number))
            for s in table.seats.all()
        ]
        for table in tables
    ]
    title = f"{series}, {tables[0]}" if table_number is not None and tables else str(series)
    write_slips(slips, out, title, practice=series.tournament.practice)


def _fee_tournament(tournament_id: int):
    from tournaments.models import Tournament

    return Tournament.objects.prefetch_related("lost_game_fees", "passed_out_fees", "table_money").get(
        pk=tournament_id
    )


def series_settlement_pdf(series, *, out: BinaryIO) -> None:
    """The settlement sheet (5.5.5 and the fee account) of every table of a series, one page each."""
    from money.ledger import settlements

    from .settlement import write_settlements

    tournament = _fee_tournament(series.tournament_id)
    items = settlements(tournament, [series])
    write_settlements(items, out, tournament=tournament, title=str(series))


def table_settlement_pdf(table) -> bytes:
    """One table's settlement sheet as PDF bytes."""
    from money.ledger import settlements

    from .settlement import write_settlements

    tournament = _fee_tournament(table.series.tournament_id)
    items = settlements(tournament, [table.series], table_pk=table.pk)
    out = io.BytesIO()
    write_settlements(items, out, tournament=tournament, title=f"{table.series}, {table}")
    return out.getvalue()


#: The appendix's default: charts for the first 100 places. A 3,000-player open would
#: otherwise add 300 pages nobody prints; ``appendix=None`` charts everybody.
APPENDIX_PLACES = 100


def within_series(points, series_number: int) -> list[tuple[int, int, int]]:
    """The running totals of one series, counted from 0 at its first deal (its game points)."""
    before = 0
    for series, _deal, total in points:
        if series >= series_number:
            break
        before = total
    return [(series, deal, total - before) for series, deal, total in points if series == series_number]


def standings_pdf(
    tournament,
    *,
    series_number: int | None = None,
    appendix: int | None = APPENDIX_PLACES,
    out: BinaryIO,
    teams: bool = False,
    category=None,
) -> None:
    """The ranking list, overall or for one series, from :func:`standings.places.standings`;
    with a ``category``, that category's own ranking (standings.categories).

    The appendix charts the running score of every player placed up to ``appendix``
    (0: no appendix; None: every player), from :func:`standings.statistics.running_scores`:
    two more queries, whatever the number of players. One more for how final it is
    (:func:`standings.places.finality`), printed under the title of every page.
    ``teams``: the team ranking list instead (:func:`standings.places.team_standings`),
    each team with its players where a player's club stands; no appendix.
    """
    from standings.categories import within_category
    from standings.places import finality, standings, team_standings
    from standings.statistics import running_scores

    from .appendix import ChartEntry
    from .standings_list import write_standings_list

    ranked = standings(tournament, series_number)
    if teams:
        write_standings_list(
            team_standings(tournament, series_number, players=ranked),
            out,
            tournament=tournament,
            series_number=series_number,
            finality=finality(tournament, series_number),
            teams=True,
        )
        return
    ranked = within_category(ranked, category)
    chosen = [entry for entry in ranked if appendix is None or entry.place <= appendix]
    charts = []
    if chosen:
        # Only the charted players' seats and tables are read, unless that is everybody.
        ids = None if len(chosen) == len(ranked) else [entry.item.player_id for entry in chosen]
        running = running_scores(tournament, ids)
        for entry in chosen:
            points = running.get(entry.item.player_id, [])
            if series_number:
                points = within_series(points, series_number)
            charts.append(ChartEntry(entry.place, entry.item.name, entry.rating.points, points))
    write_standings_list(
        ranked,
        out,
        tournament=tournament,
        series_number=series_number,
        charts=charts,
        finality=finality(tournament, series_number),
        category=category.name if category is not None else "",
    )


def prize_list_pdf(tournament, payout, *, finality=None, out: BinaryIO) -> None:
    """The prize list of :func:`money.ledger.prize_payout`, with a line for each winner's
    signature; ``finality`` prints whether the ranking it pays out on is final."""
    from .prizes import write_prize_list

    write_prize_list(payout, out, tournament=tournament, finality=finality)


def start_list_pdf(tournament, *, out: BinaryIO) -> None:
    """The start list (:mod:`.startlist`): every player still playing and every player who
    withdrew after playing, by surname, with his table and seat in each drawn series (a
    withdrawn player's later series marked as such). A player registered but absent from
    every drawn series (a no-show) is not listed, and the page says how many. Two queries."""
    from tournaments.models import Registration, Seat

    from .startlist import WITHDREW, StartLine, write_start_list

    registrations = (
        Registration.objects.filter(tournament=tournament)
        .select_related("player__club")
        .order_by("player__sort_key", "player__name", "pk")
    )
    numbers = list(tournament.series.order_by("number").values_list("number", flat=True))
    places: dict[int, dict[int, str]] = {}
    for player_id, series, table, seat in Seat.objects.filter(series__tournament=tournament).values_list(
        "player_id", "series__number", "table__number", "number"
    ):
        places.setdefault(player_id, {})[series] = f"{table}/{seat}"
    lines, not_seated = [], 0
    for r in registrations:
        seats = places.get(r.player_id, {})
        withdrawn = r.withdrawn_after_series
        if numbers and not seats and (withdrawn is not None or not r.present):
            not_seated += 1  # a no-show: no seat in any drawn series
            continue
        if withdrawn is not None and not seats:
            continue  # withdrew before any draw (removed)
        cells = tuple(WITHDREW if withdrawn is not None and n > withdrawn else seats.get(n, "") for n in numbers)
        lines.append(StartLine(r.start_number, r.player.name, r.player.club.name if r.player.club_id else "", cells))
    write_start_list(lines, numbers, out, tournament=tournament, not_seated=not_seated)


def start_cards_pdf(tournament, *, absolute_url: Callable[[str], str], out: BinaryIO) -> None:
    """Each registered player's start card (:mod:`.startcards`) by start number, with his own
    page's private link as QR code on the office's hall address. One query."""
    from django.urls import reverse

    from tournaments.models import Registration
    from tournaments.player_links import player_path

    from .startcards import StartCard, write_start_cards

    registrations = (
        Registration.objects.filter(tournament=tournament, withdrawn_after_series__isnull=True)
        .select_related("player__club")
        .order_by(F("start_number").asc(nulls_last=True), "player__sort_key", "pk")
    )
    lookup = absolute_url(reverse("player:lookup", args=[tournament.pk]))
    cards = [
        StartCard(
            tournament.name,
            r.start_number,
            r.player.name,
            r.player.club.name if r.player.club_id else "",
            absolute_url(player_path(r)),
            lookup,
        )
        for r in registrations
    ]
    write_start_cards(cards, out, f"{tournament.name}: start cards", practice=tournament.practice)


def certificates_pdf(tournament, ranked: Sequence, *, places: int, out: BinaryIO, finality=None) -> None:
    """Certificates (:mod:`.certificates`) for the overall places 1 to ``places`` (all who
    share one of them) and each category's winner, by its own ranking (DOMAIN: certificates
    for the top places and each category's winner). ``ranked``: the overall standings;
    ``finality``: :func:`standings.places.finality`'s answer (not final: every page says so)."""
    from standings.categories import category_winners

    from .certificates import Certificate, write_certificates
    from .scoresheet_data import _date
    from .standings_list import status_line

    def certificate(entry, category: str) -> Certificate:
        return Certificate(entry.place, entry.item.name, entry.item.club, entry.rating.rating, category)

    chosen = [certificate(entry, "") for entry in ranked if entry.place <= places]
    chosen += [certificate(entry, category.name) for category, entry in category_winners(tournament, ranked)]
    provisional = "" if finality is None or finality.final else status_line(finality)
    write_certificates(chosen, out, tournament=tournament, date=_date(tournament.date), provisional=provisional)
