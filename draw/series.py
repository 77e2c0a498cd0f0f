"""Drawing a series into the database, and the director's changes before it starts.

The pure draw lives in :mod:`skat.draw`; this module feeds it the series'
players, their clubs and teams, who already met, and (for a seeded draw) the current
standings (standings.places), then writes tables and seats in
one transaction.
"""

from __future__ import annotations

from itertools import combinations

from django.db import transaction
from django.db.models import Max

from scoring.state import play_started as deals_on
from signoff.sheets import unconfirmed_tables
from skat.draw import DrawResult, Entrant, draw
from skat.rules import RuleError, gettext_noop
from standings.places import ranking_order
from tournaments import hooks
from tournaments.models import Registration, Seat, Series, Table, Tournament


def previous_meetings(tournament: Tournament, before: int | None = None) -> list[tuple[int, int]]:
    """Every pair of players who sat at one table in an earlier series, once per meeting;
    ``before``: only the series before that number (a series drawn again)."""
    by_table: dict[int, list[int]] = {}
    seats = Seat.objects.filter(series__tournament=tournament)
    if before is not None:
        seats = seats.filter(series__number__lt=before)
    for table_id, player_id in seats.values_list("table_id", "player_id"):
        by_table.setdefault(table_id, []).append(player_id)
    return [pair for players in by_table.values() for pair in combinations(players, 2)]


def planned_result(tables: list[list[int]], entrants: list[Entrant], met: list[tuple[int, int]]) -> DrawResult:
    """A fixed plan's tables as a draw's result, with the repeat and club meetings it has."""
    club = {e.id: e.club for e in entrants}
    earlier = {frozenset(pair) for pair in met}
    result = DrawResult(tables=tables)
    for players in tables:
        for a, b in combinations(players, 2):
            result.repeat_meetings += frozenset((a, b)) in earlier
            result.club_meetings += club.get(a) is not None and club.get(a) == club.get(b)
    return result


class ProvisionalSeeding(Exception):
    """A seeded draw would rest on sheets nobody confirmed yet (5.5.3): the director
    confirms it knowing which (``tables``: (series, table) pairs)."""

    def __init__(self, tables: list[tuple[int, int]]) -> None:
        self.tables = tables
        super().__init__(f"unconfirmed sheets {tables}")


def draw_series(
    tournament: Tournament,
    method: str = Series.Method.RANDOM,
    seed: int | None = None,
    *,
    provisional: bool = False,
) -> Series:
    """Draw the next series of ``tournament`` and store its tables and seats.

    Raises :class:`RuleError` (field ``series`` or ``players``) and writes nothing when
    the series cannot be drawn, and :class:`ProvisionalSeeding` for a seeded draw while
    a sheet is unconfirmed, unless ``provisional`` says the director knows.
    """
    with transaction.atomic():
        # Lock the tournament row so two directors cannot draw the same series twice.
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        last = tournament.series.order_by("-number").first()
        number = 1 if last is None else last.number + 1
        if number > tournament.series_count:
            raise RuleError(
                "series",
                gettext_noop(
                    "all {count} series of this tournament are drawn; raise the number of series to play another"
                ),
                "3.1.1",
                count=tournament.series_count,
            )
        if last is not None and last.status != Series.Status.FINISHED:
            raise RuleError(
                "series",
                gettext_noop("finish series {last} before drawing series {number}"),
                "3.2.11",
                last=last.number,
                number=number,
            )
        if method not in Series.Method.values:
            raise RuleError("method", gettext_noop("{method} is not a draw method"), "3.1.1", method=repr(method))

        entrants = entrants_of(tournament, number)
        ranking = None
        if method == Series.Method.SEEDED and last is not None:
            unconfirmed = unconfirmed_tables(tournament)
            if unconfirmed and not provisional:
                raise ProvisionalSeeding(unconfirmed)
            ranking = seeding(tournament, entrants)
        # Derived from the tournament's seed, so a draw can be reproduced; kept in 31 bits
        # for the database column.
        draw_seed = (tournament.lot_seed * 100 + number) % 2**31 if seed is None else seed
        met = previous_meetings(tournament)
        planned = hooks.seating_plan(tournament, number, [e.id for e in entrants])
        if planned is not None:  # a league match day's fixed seating plan (Setzplan)
            result = planned_result(planned, entrants, met)
        else:
            result = draw(entrants, seed=draw_seed, met=met, ranking=ranking)

        series = Series.objects.create(
            tournament=tournament,
            number=number,
            method=method if last is not None else Series.Method.RANDOM,
            seed=draw_seed,
            repeat_meetings=result.repeat_meetings,
            club_meetings=result.club_meetings,
        )
        store_tables(series, result.tables)
        return series


def entrants_of(tournament: Tournament, number: int) -> list[Entrant]:
    """The players series ``number`` seats, as the draw sees them: once check-in has
    started (anybody marked present at the door), only the players present."""
    taking_part = Registration.objects.filter(tournament=tournament).playing_in(number)
    if taking_part.filter(present=True).exists():
        taking_part = taking_part.filter(present=True)
    registrations = list(taking_part.select_related("player").order_by("player_id"))
    return [Entrant(r.player_id, club=r.player.club_id, team=r.team_id) for r in registrations]


def seeding(tournament: Tournament, entrants: list[Entrant]) -> list:
    """The entrants in the order of the standings (scoring fills the hook); late entries
    have no standing yet and are seeded after everybody else."""
    order = ranking_order(tournament)
    playing = {e.id for e in entrants}
    ranked = [p for p in order if p in playing]
    return ranked + sorted(playing - set(ranked))


def store_tables(series: Series, drawn: list[list[int]], first_number: int = 1) -> list[Table]:
    """Write drawn tables (player ids in seat order) as tables and seats of ``series``."""
    tables = Table.objects.bulk_create(
        [Table(series=series, number=i, size=len(players)) for i, players in enumerate(drawn, start=first_number)]
    )
    Seat.objects.bulk_create(
        [
            Seat(table=table, series=series, number=seat, player_id=player)
            for table, players in zip(tables, drawn, strict=True)
            for seat, player in enumerate(players, start=1)
        ]
    )
    return tables


def can_draw_next(tournament: Tournament, drawn: list[Series]) -> bool:
    """Whether the next series may be drawn: one is left to play and the last one drawn is
    finished (3.2.11). ``drawn``: the tournament's series in order. :func:`draw_series`
    refuses the same cases, each with its reason."""
    return len(drawn) < tournament.series_count and (not drawn or drawn[-1].status == Series.Status.FINISHED)


def seats_editable(series: Series, *, play_started: bool | None = None) -> bool:
    """3.1.2: seats and tables change only before the series starts: drawn, no deal entered.
    ``play_started`` when the caller already knows it (else the games are asked)."""
    if series.status != Series.Status.DRAWN:
        return False
    return not (deals_on(series) if play_started is None else play_started)


def _editable(series: Series) -> None:
    if not seats_editable(series):
        raise RuleError("series", gettext_noop("seats can only change before the series starts"), "3.1.2")


def swap_players(series: Series, first_player_id: int, second_player_id: int) -> None:
    """Exchange two players' seats (at one table or two) before the series starts."""
    with transaction.atomic():
        _editable(series)
        seats = {s.player_id: s for s in Seat.objects.select_for_update().filter(series=series)}
        try:
            a, b = seats[first_player_id], seats[second_player_id]
        except KeyError:
            raise RuleError("player", gettext_noop("both players must be seated in this series"), "3.1.1") from None
        if a.pk == b.pk:
            raise RuleError("player", gettext_noop("choose two different players"), "3.1.1")
        # Re-create both seats with the players exchanged: no unique constraint
        # (seat per table, player per series) is broken midway.
        swapped = [
            Seat(table_id=a.table_id, series=series, number=a.number, player_id=b.player_id),
            Seat(table_id=b.table_id, series=series, number=b.number, player_id=a.player_id),
        ]
        Seat.objects.filter(pk__in=[a.pk, b.pk]).delete()
        Seat.objects.bulk_create(swapped)


def move_player(series: Series, player_id: int, table: Table) -> None:
    """Move a player to another table (he takes its last seat) before the series starts.

    Both tables must still have three or four players afterwards (3.2.7).
    """
    with transaction.atomic():
        _editable(series)
        try:
            seat = Seat.objects.select_for_update().select_related("table").get(series=series, player_id=player_id)
        except Seat.DoesNotExist:
            raise RuleError("player", gettext_noop("this player is not seated in this series"), "3.1.1") from None
        if table.series_id != series.pk:
            raise RuleError("table", gettext_noop("that table belongs to another series"), "3.1.1")
        origin = seat.table
        if origin.pk == table.pk:
            raise RuleError("table", gettext_noop("the player already sits at this table"), "3.1.1")
        if origin.size <= 3 or table.size >= 4:
            raise RuleError(
                "table",
                gettext_noop(
                    "table {origin} would have {origin_size} and table {target} {target_size} players; "
                    "tables have 3 or 4 (swap players instead)"
                ),
                "3.2.7",
                origin=origin.number,
                origin_size=origin.size - 1,
                target=table.number,
                target_size=table.size + 1,
            )
        last = table.seats.aggregate(m=Max("number"))["m"] or 0
        Seat.objects.filter(pk=seat.pk).update(table=table, number=last + 1)
        # Close the gap at the old table: seats stay numbered 1..n.
        for number, other in enumerate(origin.seats.order_by("number"), start=1):
            if other.number != number:
                Seat.objects.filter(pk=other.pk).update(number=number)
        Table.objects.filter(pk=origin.pk).update(size=origin.size - 1)
        Table.objects.filter(pk=table.pk).update(size=table.size + 1)
