"""The players' standings kept up to date in each serving process: a change of the results
costs the tables it touched, not the whole field.

At 9,000 players the standings read 18,000 seats, rate and rank them (0.3-0.8 s on a
slow laptop); in play the results change many times a second, one or two tables at a
time. The database counts every change per table (:class:`scoring.models.ResultsMark`:
a sheet's games and sign-off on the table's row, everything else - seats, tables,
registrations, names - on the tournament's row, scope 0). A :class:`Tally` remembers the
counters it has read; on the next request it reads those that moved since (one query:
the counters changed since shortly before the latest one it saw, and the sum of all
versions, which tells whether any other moved; then it reads them all) and

- when the tournament's row moved (a draw, a swap, a late registration, a renamed
  player), it computes everything again, as :func:`standings.places.standings` does;
- otherwise it reads the seats and sign-offs of the tables whose counter moved (one
  small query), takes their old ratings off their players and adds the new ones
  (the engine's :func:`skat.rating.rate_players` per table), and moves just those
  players in the sorted order (bisect); only the rows whose place changed are made anew;
  how final they are (:meth:`Tally.finality`) follows the sign-offs it read.

The counters are read before the rows, so what a tally holds is never older than the
counters it remembers (each with its time: a change rolled back and another one
counted with the same number is still told apart); a table read again is read whole,
never patched. A request at the results mark of the last refresh reads nothing. Each
row is a new dict when anything on it changes and is never changed after: a thread
reading the list meanwhile sees the old row or the new one. The order and the rows
equal :func:`standings.places.standings` flattened by :func:`standings.tables.rows`
(tests/standings/test_tally.py holds them so, deal by deal).
"""

from __future__ import annotations

import logging
import threading
import time
from bisect import bisect_left
from collections import Counter, OrderedDict
from collections.abc import Iterable

from django.db import connections
from django.db.models import Count, Exists, OuterRef

from scoring.models import Game, ResultsMark
from skat.rating import Rating, lot, rate_players, tie_break_key
from tournaments.models import Seat, Table, Tournament

from .counters import Counters
from .places import Finality, finality, plain_rows, registered_names, scope_series, seated_names, seats_with_totals
from .tally_log import report

logger = logging.getLogger(__name__)

#: Tallies one process keeps (tournaments x scopes); the least recently read goes first.
KEPT = 16

#: What the rows' ranks are sorted by: (-rating, -won, lost) as the engine's tie-break,
#: the lot that decides true ties, and the player.
SortKey = tuple[int, int, int, str, int]


class Tally:
    """One scope's (the whole tournament or one series) ranked rows and what they were made from."""

    def __init__(self, series_number: int | None) -> None:
        self.series_number = series_number
        self.lock = threading.Lock()
        #: The tournament's own counter (version, changed_at) when everything was computed.
        self.base: tuple | None = None
        self.built = False
        #: The results mark read before the last refresh (the tally is at least as new).
        self.mark: object = None
        #: Each table's counter (version, changed_at) when it was last read.
        self.read: dict[int, tuple] = {}
        #: Every counter of the tournament as last read (scope 0 and tables without seats too).
        self.counters = Counters()
        self.sizes: dict[int, int] = {}
        #: Each table's series number.
        self.series: dict[int, int] = {}
        self.unsigned: set[int] = set()
        #: The tables in scope without seats, those of them confirmed, and the series not
        #: finished (all from the last whole computation: see :meth:`finality`).
        self.unseated: set[int] = set()
        self.unseated_confirmed = 0
        self.unfinished: tuple[int, ...] = ()
        self.seated: dict[int, list[int]] = {}
        #: Each table's rating of each player there.
        self.parts: dict[int, dict[int, Rating]] = {}
        self.totals: dict[int, Rating] = {}
        self.tables: Counter[int] = Counter()
        self.unconfirmed: Counter[int] = Counter()
        self.names: dict[int, tuple[str, str, int | None]] = {}
        self.keys: dict[int, SortKey] = {}
        self.order: list[SortKey] = []
        self.rows: list[dict] = []
        #: Each player's row in :attr:`rows`.
        self.row_of: dict[int, dict] = {}
        #: Each table's deals entered (passed out and voided too), once the projector asked.
        self.entered: dict[int, int] | None = None
        #: How often it computed everything, how often it moved only changed tables, and
        #: the seconds its refreshes took.
        self.builds = 0
        self.updates = 0
        self.seconds = 0.0

    def refresh(self, tournament: Tournament) -> None:
        """Bring the rows up to the results as they stand now (see the module's text)."""
        try:
            self._refresh(tournament)
        except BaseException:
            self.built = False  # the counters remembered may be ahead of the rows: start afresh
            raise

    def _refresh(self, tournament: Tournament) -> None:
        fresh = self.counters.read_moved(tournament) if self.built else None
        whole = fresh is None
        if whole:
            fresh = self.counters.read_all(tournament)
        # Scope 0 is the tournament's own counter, never a table's id.
        marks = self.counters.marks
        base = marks.get(0)
        # A sheet without players moving (rare) counts in how final they are: everything again.
        if not self.built or base != self.base or (self.unseated and not self.unseated.isdisjoint(fresh)):
            self._build(tournament, marks, base)
            return
        read = self.read.get
        changed = [table for table, mark in fresh.items() if table and read(table, mark) != mark]
        if whole:  # a counter gone (only a whole read can tell)
            changed += [table for table in self.read.keys() - marks.keys() if self.read[table] is not None]
        if changed:
            self._update(tournament, changed, marks)

    def _build(self, tournament: Tournament, marks: dict[int, tuple], base: tuple | None) -> None:
        started = time.monotonic()
        series_ids = scope_series(tournament, self.series_number)
        seat_rows = seats_with_totals(series_ids, sheets=True)
        # Only the tables with seats count: a table's counter moves without a seat there is nothing to move.
        self.sizes = {row[0]: row[5] for row in seat_rows}
        self.series = {row[0]: row[7] for row in seat_rows}
        self.unsigned = {row[0] for row in seat_rows if row[6] is None}
        self.read = {table: marks.get(table) for table in self.sizes}
        by_table: dict[int, list[tuple]] = {}
        for row in seat_rows:
            by_table.setdefault(row[0], []).append(row[:5])
        self.seated = {table: [row[1] for row in rows] for table, rows in by_table.items()}
        self.parts = {table: rate_players({table: self.sizes[table]}, rows) for table, rows in by_table.items()}
        self.tables = Counter(row[1] for row in seat_rows)
        self.unconfirmed = Counter(row[1] for row in seat_rows if row[0] in self.unsigned)
        sums: dict[int, list[int]] = {}
        for part in self.parts.values():
            for player, rating in part.items():
                entry = sums.setdefault(player, [0, 0, 0, 0])
                for i in range(4):
                    entry[i] += rating[i]
        self.totals = {player: Rating(*entry) for player, entry in sums.items()}
        self.names = _names(registered_names(tournament), self.tables)
        if len(self.names) < len(self.tables):
            self.names = _names(seated_names(series_ids), self.tables)
        seed = tournament.lot_seed
        self.keys = {
            player: (*tie_break_key(rating), lot(seed, player), player) for player, rating in self.totals.items()
        }
        self.order = sorted(self.keys.values())
        self.rows = []
        self.row_of = {}
        self._rows_between(0, len(self.order) - 1, set(self.keys))
        self._sheets_without_seats(tournament, series_ids)
        self.entered = None
        self.base = base
        self.built = True
        self.builds += 1
        logger.info(
            "standings of tournament %s%s computed whole: %d players, %.0f ms",
            tournament.pk,
            f" series {self.series_number}" if self.series_number else "",
            len(self.order),
            (time.monotonic() - started) * 1000,
        )

    def _sheets_without_seats(self, tournament: Tournament, series_ids) -> None:
        """What :meth:`finality` needs besides the seated tables: the series not finished,
        and the tables without seats (none where the office drew them: then one query)."""
        done = finality(tournament, self.series_number)
        self.unfinished = done.unfinished
        self.unseated, self.unseated_confirmed = set(), 0
        if done.sheets > len(self.sizes):
            seated = Seat.objects.filter(table=OuterRef("pk"))
            tables = Table.objects.filter(series__in=series_ids).filter(~Exists(seated)).order_by()
            for table, signoff in plain_rows(tables.values_list("pk", "signoff")):
                self.unseated.add(table)
                self.unseated_confirmed += signoff is not None

    def finality(self) -> Finality:
        """How final the rows are, as :func:`standings.places.finality` counts it: the seated
        tables' sign-offs as the tally keeps them, the rest as of the last whole
        computation (series and tables count on the tournament's own counter; a sheet
        without seats moving computes everything again)."""
        signed = len(self.sizes) - len(self.unsigned)
        sheets = len(self.sizes) + len(self.unseated)
        return Finality(signed + self.unseated_confirmed, sheets, self.unfinished)

    def _update(self, tournament: Tournament, changed: list[int], marks: dict[int, tuple]) -> None:
        series_ids = scope_series(tournament, self.series_number)
        by_table: dict[int, list[tuple]] = {table: [] for table in changed}
        signed = set()
        for row in seats_with_totals(series_ids, changed, sheets=True):
            by_table[row[0]].append(row[:5])
            if row[6] is not None:
                signed.add(row[0])
        moved: set[int] = set()
        for table, rows in by_table.items():
            old = self.parts.get(table, {})
            new = rate_players({table: self.sizes[table]}, rows)
            was_unsigned, unsigned = table in self.unsigned, table not in signed
            for player in self.seated.get(table, ()):
                before, after = old.get(player, Rating()), new.get(player, Rating())
                if before != after:
                    self.totals[player] = Rating(
                        *(t - b + a for t, b, a in zip(self.totals[player], before, after, strict=True))
                    )
                    moved.add(player)
                if was_unsigned != unsigned:
                    self.unconfirmed[player] += 1 if unsigned else -1
                    moved.add(player)
            self.parts[table] = new
            if unsigned:
                self.unsigned.add(table)
            else:
                self.unsigned.discard(table)
            self.read[table] = marks.get(table)
        if moved:
            low, high = self._move(moved)
            self._rows_between(low, high + 1, moved)
        if self.entered is not None:
            self.entered.update(dict.fromkeys(changed, 0) | _entered(Game.objects.filter(table__in=changed)))
        self.updates += 1

    def sheets(self, tournament: Tournament, series_number: int) -> list[tuple[int, bool, int]]:
        """(size, confirmed, deals entered) of every table with seats of series ``series_number``
        (the projector's progress): the deals counted once, then again only at the tables
        whose counter moved."""
        if self.entered is None:
            games = Game.objects.filter(table__series__in=scope_series(tournament, self.series_number))
            self.entered = dict.fromkeys(self.sizes, 0) | _entered(games)
        series = self.series
        return [
            (size, table not in self.unsigned, self.entered[table])
            for table, size in self.sizes.items()
            if series[table] == series_number
        ]

    def _move(self, players: Iterable[int]) -> tuple[int, int]:
        """Each player's sort key anew and his place in the order; the range of places that moved."""
        order = self.order
        low, high = len(order), 0
        for player in players:
            old = self.keys[player]
            new = (*tie_break_key(self.totals[player]), old[3], player)
            at = bisect_left(order, old)
            low, high = min(low, at), max(high, at)
            if new == old:
                continue
            del order[at]
            to = bisect_left(order, new)
            order.insert(to, new)
            self.keys[player] = new
            low, high = min(low, to), max(high, to)
        return low, high

    def _rows_between(self, low: int, high: int, changed: set[int]) -> None:
        """New rows for places ``low`` to ``high`` (from 0) where a player, his place, what
        decided it or his figures changed; a new list, the rows outside kept as they are."""
        order = self.order
        rows = list(self.rows) if self.rows else [None] * len(order)
        row_of = self.row_of
        for at in range(max(low, 0), min(high, len(order) - 1) + 1):
            key = order[at]
            player = key[4]
            decided_by = _decided_by(order[at - 1], key) if at else None
            row = row_of.get(player)
            if row is None or player in changed:
                row = row_of[player] = self._row(at + 1, decided_by, player)
            elif row["place"] != at + 1 or row["decided_by"] != decided_by:
                row = row_of[player] = row | {"place": at + 1, "decided_by": decided_by}  # moved only
            rows[at] = row
        self.rows = rows

    def _row(self, place: int, decided_by: str | None, player: int) -> dict:
        """The player's row as :func:`standings.tables.rows` makes it."""
        rating = self.totals[player]
        name, club, start = self.names[player]
        return {
            "place": place,
            "name": name,
            "points": rating.points,
            "won": rating.won,
            "lost": rating.lost,
            "bonus": rating.bonus,
            "rating": rating.rating,
            "tables": self.tables[player],
            "decided_by": decided_by,
            "unconfirmed": self.unconfirmed[player],
            "club": club,
            "player_id": player,
            "start_number": start,
        }


def _decided_by(above: SortKey, key: SortKey) -> str:
    """What separates ``key`` from the place above it, as :func:`skat.rating.rank` names it."""
    if key[0] != above[0]:
        return "rating"
    if key[1] != above[1]:
        return "won"
    if key[2] != above[2]:
        return "lost"
    return "lot"


def _names(rows: list[tuple], seated: Counter[int]) -> dict[int, tuple[str, str, int | None]]:
    return {player: (name, club or "", start) for player, name, club, start in rows if player in seated}


def _entered(games) -> dict[int, int]:
    """The deals among ``games`` (a query) per table (one query; tables without any left out)."""
    return dict(plain_rows(games.order_by().values_list("table_id").annotate(Count("pk"))))


_tallies: OrderedDict[tuple, Tally] = OrderedDict()
_guard = threading.Lock()


def _tally(tournament: Tournament, series_number: int | None) -> Tally:
    db = ResultsMark.objects.db
    created = tournament.created_at.timestamp() if tournament.created_at else 0
    key = (db, connections[db].settings_dict["NAME"], tournament.pk, created, series_number)
    with _guard:
        tally = _tallies.get(key)
        if tally is None:
            tally = _tallies[key] = Tally(series_number)
            while len(_tallies) > KEPT:
                _tallies.popitem(last=False)
        _tallies.move_to_end(key)
    return tally


def ranked_rows(tournament: Tournament, series_number: int | None = None, mark: object = None) -> list[dict]:
    """The players' standings of the tournament (or of one series) as the ranking list's rows,
    best first, as the results stand now. The rows are shared: copy one before changing it.

    ``mark``: the tournament's results mark (:func:`standings.cache.results_mark`) read by
    this request before; when the last refresh was made at the same mark nothing changed
    since, and no counter is read again (another page of the list, another language).
    """
    return ranked(tournament, series_number, mark)[0]


def ranked(
    tournament: Tournament, series_number: int | None = None, mark: object = None
) -> tuple[list[dict], Finality]:
    """:func:`ranked_rows` and how final they are (:meth:`Tally.finality`), of the same refresh."""
    tally = _tally(tournament, series_number)
    with tally.lock:
        if mark is None or mark != tally.mark:
            started = time.monotonic()
            tally.refresh(tournament)
            tally.mark = mark
            tally.seconds += time.monotonic() - started
        rows, done = tally.rows, tally.finality()
    report(counts)
    return rows, done


def sheets(tournament: Tournament, series_number: int, refresh: bool = True) -> list[tuple[int, bool, int]]:
    """(size, confirmed, deals entered) of every table of series ``series_number``, as the
    results stand now (see :meth:`Tally.sheets`); ``refresh`` False: as the request's own
    :func:`ranked_rows` of the whole tournament just brought them (no query for the counters)."""
    tally = _tally(tournament, None)
    with tally.lock:
        if refresh or not tally.built:
            tally.refresh(tournament)
        return tally.sheets(tournament, series_number)


def counts() -> dict[str, float]:
    """How often this process computed standings whole, how often it moved changed tables
    only, and the seconds all its refreshes took (the tallies it keeps now)."""
    tallies = list(_tallies.values())
    return {
        "builds": sum(t.builds for t in tallies),
        "updates": sum(t.updates for t in tallies),
        "seconds": sum(t.seconds for t in tallies),
    }
