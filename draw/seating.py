"""Changing the tables of a drawn series after the draw: what no-shows, late arrivals and
a redraw share (draw.arrivals, draw.redraw).

Every change runs in one transaction that first locks the tournament's row (two
directors queue, and a draw cannot run meanwhile) and then the series' tables in id
order (a deal entered from a phone locks its table too, scoring.entry): a table where a
deal is entered, on the sheet or the second list, is never changed (3.1.2). A changed
table gets a new link: its old QR code and PINs stop working (the PINs hang on the
link, signoff.pins), so the reprinted card and slips are the only valid ones.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations

from django.db.models import Prefetch

from scoring.lists import tables_with_deals
from skat.draw import Entrant, conflicts
from skat.rules import RuleError, gettext_noop
from tournaments.models import Registration, Seat, Series, Table, Tournament, new_token

from .series import previous_meetings


@dataclass
class TableChange:
    """One table a change touched: its players afterwards (names in seat order), or
    ``removed`` when it is gone; ``added`` when it is new."""

    number: int
    players: list[str] = field(default_factory=list)
    added: bool = False
    removed: bool = False


@dataclass
class Change:
    """What a change did, for the director's message and the reprint links."""

    series: int
    tables: list[TableChange] = field(default_factory=list)

    @property
    def reprint(self) -> list[int]:
        """The table numbers whose card and PIN slips are printed again."""
        return sorted(t.number for t in self.tables if not t.removed)


@dataclass
class Hall:
    """The locked tables of one series: player ids in seat order, and which are open
    (no deal entered); with the pair penalties of the draw for choosing among them."""

    tournament: Tournament
    series: Series
    tables: dict[int, Table]  # by number
    seats: dict[int, list[int]]  # table number -> player ids in seat order
    names: dict[int, str]
    open: set[int]  # table numbers without a deal
    entrants: dict[int, Entrant]
    met: list[tuple[int, int]]

    def table_of(self, player_id: int) -> int | None:
        return next((n for n, players in self.seats.items() if player_id in players), None)

    def penalties(self, extra: list[Entrant] = ()):
        return conflicts([*self.entrants.values(), *extra], self.met)


def lock(tournament: Tournament, series: Series) -> Hall:
    """Lock the tournament and the series' tables; read seats, names, clubs, teams and
    who met before (a fixed number of queries)."""
    Tournament.objects.select_for_update().filter(pk=tournament.pk).order_by().values_list("pk").get()
    series = Series.objects.get(pk=series.pk)
    ids = list(Table.objects.select_for_update().filter(series=series).order_by("pk").values_list("pk", flat=True))
    seats = Seat.objects.select_related("player").order_by("number")
    tables = list(
        Table.objects.filter(pk__in=ids).prefetch_related(Prefetch("seats", queryset=seats)).order_by("number")
    )
    started = tables_with_deals(ids)
    by_number = {t.number: t for t in tables}
    seat_lists = {t.number: [s.player_id for s in t.seats.all()] for t in tables}
    names = {s.player_id: s.player.name for t in tables for s in t.seats.all()}
    seated = {p for players in seat_lists.values() for p in players}
    registrations = Registration.objects.filter(tournament=tournament, player_id__in=seated).select_related("player")
    entrants = {r.player_id: Entrant(r.player_id, club=r.player.club_id, team=r.team_id) for r in registrations}
    for player_id in seated - set(entrants):  # seated without a registration (the admin): no club, no team
        entrants[player_id] = Entrant(player_id)
    return Hall(
        tournament=tournament,
        series=series,
        tables=by_number,
        seats=seat_lists,
        names=names,
        open={t.number for t in tables if t.pk not in started},
        entrants=entrants,
        met=previous_meetings(tournament, before=series.number),
    )


def refuse_started(hall: Hall, numbers: list[int]) -> None:
    """RuleError when a deal is entered at one of the tables ``numbers`` (3.1.2)."""
    started = sorted(n for n in numbers if n not in hall.open)
    if started:
        raise RuleError(
            "series",
            gettext_noop("a deal is entered at table {tables} of series {series}: its seats are fixed now"),
            "3.1.2",
            tables=", ".join(map(str, started)),
            series=hall.series.number,
        )


def nearest(numbers: list[int], to: int) -> list[int]:
    """``numbers`` by their distance to table ``to`` (the seeding of a seeded series holds
    best among neighbouring tables), the lower number first on a tie."""
    return sorted(numbers, key=lambda n: (abs(n - to), n))


def best_split(hall: Hall, players: list[int], sizes: list[int]) -> list[list[int]]:
    """``players`` onto tables of ``sizes``, the fewest conflicts the draw knows: every
    split for up to 9 players (a handful of tables), kept in order otherwise."""
    penalties = hall.penalties()
    best: tuple[int, list[list[int]]] | None = None
    if len(sizes) <= 3 and len(players) <= 9:
        for split in _splits(players, sizes):
            cost = sum(penalties.table(t) for t in split)
            if best is None or cost < best[0]:
                best = (cost, split)
    return best[1] if best else _chunks(players, sizes)


def _splits(players: list[int], sizes: list[int]):
    if not sizes:
        yield []
        return
    first, rest = sizes[0], sizes[1:]
    # The first player always goes to the first table: splits differing only by the
    # order of equal tables are tried once.
    head, others = players[0], players[1:]
    for mates in combinations(others, first - 1):
        remaining = [p for p in others if p not in mates]
        for split in _splits(remaining, rest):
            yield [[head, *mates], *split]


def _chunks(players: list[int], sizes: list[int]) -> list[list[int]]:
    result, start = [], 0
    for size in sizes:
        result.append(players[start : start + size])
        start += size
    return result


def write(hall: Hall, plan: dict[int, list[int]]) -> Change:
    """Store ``plan`` (table number -> player ids in seat order; [] removes the table):
    each changed table's seats anew, its size, and a new link. Recounts the series'
    repeat meetings and club-mate pairs."""
    series = hall.series
    change = Change(series=series.number)
    changed = [n for n, players in plan.items() if hall.seats.get(n) != players]
    existing = [hall.tables[n] for n in changed if n in hall.tables]
    # Seats go first, so no player sits twice in the series at any moment.
    Seat.objects.filter(table__in=existing).delete()
    for number in sorted(changed):
        players = plan[number]
        table = hall.tables.get(number)
        if not players:
            if table is not None:
                table.delete()
            change.tables.append(TableChange(number, removed=True))
            continue
        if table is None:
            table = Table.objects.create(series=series, number=number, size=len(players))
            hall.tables[number] = table
            added = True
        else:
            Table.objects.filter(pk=table.pk).update(size=len(players), token=new_token(), control_token=new_token())
            added = False
        Seat.objects.bulk_create(
            [Seat(table=table, series=series, number=i, player_id=p) for i, p in enumerate(players, start=1)]
        )
        change.tables.append(TableChange(number, [hall.names.get(p, "?") for p in players], added=added))
    after = {n: players for n, players in {**hall.seats, **plan}.items() if players}
    _recount(hall, after)
    hall.seats = after
    return change


def _recount(hall: Hall, seats: dict[int, list[int]]) -> None:
    penalties = hall.penalties()
    repeat = club = 0
    for players in seats.values():
        for a, b in combinations(players, 2):
            repeat += 1 if penalties.met.get(a, {}).get(b, 0) else 0
            same_club = penalties.club.get(a)
            club += 1 if same_club is not None and same_club == penalties.club.get(b) else 0
    Series.objects.filter(pk=hall.series.pk).update(repeat_meetings=repeat, club_meetings=club)
