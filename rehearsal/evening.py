"""A practice evening played to the end: each series drawn, its tables played deal by deal, finished.

The director's part goes through the services his buttons use (``draw.series.draw_series``,
``dashboard.progress.finish_series``); the tables' part through the table links, as the
phones send it (:mod:`.phones`): every table enters a deal every ``pace`` seconds, some
keep the second list too, some correct a deal, some call a referee about a deal (4.5.10),
and at the end the players confirm each sheet with their PINs (5.5.3), except at a few
tables left for the referees to mark "signed on paper". So the director, the desk and the
referees practise every page with a live evening around them.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from dashboard.progress import finish_series, table_progress
from draw.series import draw_series
from signoff.models import SignOff
from signoff.pins import seat_pin
from tournaments.models import Series, Table, Tournament

from .deals import deal_fields
from .phones import InProcess, Phone, Tally

#: How often a table does what a referee then practises on (of the tables of a series).
#: (every n-th table, from table number ...): a 12-player evening has one table of each.
SECOND_LIST = (3, 2)  # keeps the second list too (scoring.lists)
CORRECTION = (4, 1)  # corrects one deal on the link (5.5.3)
DISPUTE = (6, 2)  # calls a referee (4.5.10)
ON_PAPER = (7, 3)  # leaves its sheet unconfirmed: a referee marks it signed on paper

DISPUTE_TEXTS = (
    "Declarer claims the rest; the defenders disagree with the count of the tricks.",
    "A card was led out of turn (4.3.1); the table asks how to go on.",
    "The bid is disputed: 23 or 24 was said?",
)


@dataclass
class Summary:
    """What the evening did and how the office answered (every 5xx listed)."""

    tally: Tally = field(default_factory=Tally)
    series: list[int] = field(default_factory=list)
    seconds: float = 0.0
    stopped: bool = False
    #: Sheets the players confirmed with their PINs, of all the tables played (5.5.3).
    confirmed: int = 0
    tables: int = 0
    #: Tables of the last series left with deals missing: that series was not finished.
    unfinished: list[int] = field(default_factory=list)

    @property
    def server_errors(self) -> int:
        return sum(n for status, n in self.tally.statuses.items() if status >= 500)

    def lines(self) -> list[str]:
        t = self.tally
        return [
            f"series played: {', '.join(map(str, self.series)) or 'none'}{' (stopped)' if self.stopped else ''}"
            + (f"; deals missing at tables {', '.join(map(str, self.unfinished))}" if self.unfinished else ""),
            f"deals entered: {t.deals} (and {t.second_list} on second lists), corrected: {t.corrections}, "
            f"disputes raised: {t.disputes}, "
            f"PIN confirmations: {t.confirmations}, sheets confirmed: {self.confirmed} of {self.tables}",
            f"requests: {t.requests}, by status: {dict(sorted(t.statuses.items()))}",
            f"5xx: {self.server_errors}, other refusals: {len(t.refused)}",
            f"time: {self.seconds:.1f} s",
        ]


@dataclass
class _Table:
    table: Table
    sheet: Phone
    control: Phone | None
    seats: list[int]


def play(
    tournament: Tournament,
    *,
    pace: float = 0.0,
    seed: int = 1,
    transport: Callable[[], object] = InProcess,
    stop: threading.Event | None = None,
    log: Callable[[str], None] = lambda line: None,
    tick: Callable[[], None] = lambda: None,
) -> Summary:
    """Play ``tournament``'s remaining series to the end (a running one first), ``pace`` seconds per deal.

    ``tick`` is called between deals and at least every few seconds while waiting: the
    run's claim kept alive (:mod:`.claims`), which sets ``stop`` when the run must end."""
    stop = stop or threading.Event()
    summary = Summary()
    rng = random.Random(seed)
    started = time.perf_counter()
    while not stop.is_set():
        series = _next_series(tournament)
        if series is None:
            break
        log(f"series {series.number}: {series.tables.count()} tables")
        _play_series(series, rng, pace, transport, stop, summary.tally, tick)
        if stop.is_set():
            break
        lacking = [t.number for t in table_progress(series) if not t.finished]
        if lacking:
            # Deals missing (a table refused, another run took over): a series is never
            # finished short; the director sees it as it stands.
            log(f"series {series.number} not finished: deals missing at tables {', '.join(map(str, lacking))}")
            summary.unfinished = lacking
            break
        # "Finish anyway": the sheets left for the referees are not confirmed yet (5.5.3).
        finish_series(series, force=True)
        summary.series.append(series.number)
        log(f"series {series.number} finished: {summary.tally.deals} deals so far")
    summary.stopped = stop.is_set()
    summary.tables = Table.objects.filter(series__tournament=tournament).count()
    summary.confirmed = SignOff.objects.filter(table__series__tournament=tournament).count()
    summary.seconds = time.perf_counter() - started
    return summary


def _next_series(tournament: Tournament) -> Series | None:
    """The series to play: one drawn and not finished, else the next one drawn now (None: all played)."""
    last = tournament.series.order_by("-number").first()
    if last is not None and last.status != Series.Status.FINISHED:
        return last
    if (last.number if last else 0) >= tournament.series_count:
        return None
    # As the director draws: series 1 at random, the later ones seeded by the standings,
    # knowing that sheets left unconfirmed make them provisional (5.5.3).
    method = Series.Method.SEEDED if last is not None else Series.Method.RANDOM
    return draw_series(tournament, method, provisional=True)


def _play_series(
    series: Series,
    rng: random.Random,
    pace: float,
    transport,
    stop: threading.Event,
    tally: Tally,
    tick: Callable[[], None] = lambda: None,
) -> None:
    tables = []
    for table in series.tables.select_related("series__tournament").order_by("number"):
        control = Phone(transport(), table.control_token, tally, control=True) if _every(table, SECOND_LIST) else None
        seats = list(table.seats.order_by("number").values_list("number", flat=True))
        playing = _Table(table, Phone(transport(), table.token, tally), control, seats)
        if playing.sheet.open() and (control is None or control.open()):
            tables.append(playing)
    while not stop.is_set():
        wave = time.perf_counter()
        due = [t for t in tables if t.sheet.next_deal is not None]
        if not due:
            break
        for playing in due:
            _deal(playing, rng)
            tick()
        # Each table plays a deal every ``pace`` seconds; the wave's own time counts.
        _wait(stop, max(0.0, pace - (time.perf_counter() - wave)), tick)
    if stop.is_set():
        return
    for playing in tables:
        if not _every(playing.table, ON_PAPER):
            for seat in playing.seats:
                playing.sheet.confirm(seat, seat_pin(playing.table, seat))


def _deal(playing: _Table, rng: random.Random) -> None:
    """The table's next deal on its sheet (and its second list); now and then a correction or a dispute."""
    table, number = playing.table, playing.sheet.next_deal
    fields = deal_fields(rng, number, table.size)
    if not playing.sheet.enter(fields):
        return
    if playing.control is not None and playing.control.next_deal == number:
        playing.control.enter(fields)
    halfway = number == table.deals // 2
    if halfway and _every(table, CORRECTION):
        # The table noticed a mistake in the deal just entered: corrected on the link, on
        # both lists, before the next deal (5.5.3).
        corrected = deal_fields(rng, number, table.size)
        if playing.sheet.correct_last(corrected) and playing.control is not None:
            playing.control.correct_last(corrected)
    if halfway and _every(table, DISPUTE):
        text = DISPUTE_TEXTS[table.number % len(DISPUTE_TEXTS)]
        playing.sheet.dispute(number, text, name="Practice player")


def _wait(stop: threading.Event, seconds: float, tick: Callable[[], None]) -> None:
    """Wait ``seconds`` or until stopped, calling ``tick`` every second or so meanwhile."""
    end = time.perf_counter() + seconds
    while not stop.is_set() and (left := end - time.perf_counter()) > 0:
        stop.wait(min(left, 1.0))
        tick()


def _every(table: Table, rule: tuple[int, int]) -> bool:
    every, first = rule
    return table.number % every == first % every
