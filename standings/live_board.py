"""The projector page: the standings in pages of :data:`ROWS` that rotate through the field,
and how far the series being played is.

Like the public screens of Tabbycat and the chess pairing programs: one page at a
time in type readable across the hall, the next page after a few seconds
(static/js/projector.js), the whole field in turn. Each page is computed once per
change of the results (:mod:`standings.cache`); what is provisional is said once,
above the table, not on every row.
"""

from __future__ import annotations

from dataclasses import dataclass

from tournaments.models import Series, Tournament

from .cache import Mark, cache_key, cached
from .places import Finality
from .tally import sheets

#: Rows on one projector page: large type for 1920x1080 and 1280x720 without scrolling.
ROWS = 20
#: Seconds a page stays (``?seconds=``): the default, and the range a director may choose.
SECONDS = 12
SECONDS_RANGE = (3, 300)


def seconds_param(value: str | None) -> int:
    """``?seconds=`` within :data:`SECONDS_RANGE`; the default for anything else."""
    if value and value.isascii() and value.isdigit() and len(value) <= 3:
        low, high = SECONDS_RANGE
        return min(max(int(value), low), high)
    return SECONDS


@dataclass(frozen=True, slots=True)
class SeriesProgress:
    """How far the series in play is: its tables finished, playing and not started, the
    deals still to play and the sheets confirmed (5.5.3)."""

    number: int
    status: str
    tables: int
    finished: int
    playing: int
    deals_left: int
    confirmed: int

    @property
    def waiting(self) -> int:
        return self.tables - self.finished - self.playing


def series_in_play(
    tournament: Tournament, numbers: list[int], unfinished: tuple[int, ...], current: bool = False
) -> SeriesProgress | None:
    """The progress of the series being played among the drawn ``numbers``: the first of
    them still ``unfinished``, else the last (its tables with seats). None before the first draw.
    ``current``: this request has brought the whole tournament's standings up to date
    already (:func:`standings.tally.sheets` reads no counters again)."""
    if not numbers:
        return None
    number = next((n for n in numbers if n in unfinished), numbers[-1])
    status = Series.Status.RUNNING if number in unfinished else Series.Status.FINISHED
    finished = playing = deals_left = confirmed = count = 0
    # The series' tables as this process keeps them (standings.tally): a deal recounts its own table only.
    for size, signed, entered in sheets(tournament, number, refresh=not current):
        count += 1
        deals = tournament.deals_per_table(size)
        if signed:  # a confirmed sheet is closed, whatever is missing
            confirmed += 1
            finished += 1
        elif entered >= deals:
            finished += 1
        else:
            playing += entered > 0
            deals_left += deals - entered
    return SeriesProgress(number, status, count, finished, playing, deals_left, confirmed)


def progress(
    tournament: Tournament, mark: Mark, numbers: list[int], finality: Finality, current: bool = False
) -> SeriesProgress | None:
    """:func:`series_in_play` of the scope's series (``numbers``: those drawn in the scope),
    computed once per results mark (``current`` as there)."""
    key = cache_key(tournament, mark, "progress", *numbers)
    return cached(key, lambda: series_in_play(tournament, numbers, finality.unfinished, current) or False) or None


@dataclass(frozen=True, slots=True)
class BoardPage:
    """One projector page: its rows, its number among all pages and the next one's number."""

    rows: list[dict]
    number: int
    pages: int
    first: int
    last: int
    total: int

    @property
    def next(self) -> int:
        return self.number % self.pages + 1


def board_page(rows: list[dict], number: int | None, per_page: int = ROWS) -> BoardPage:
    """Page ``number`` of the rows (the first for none; the last for one past the end)."""
    pages = max((len(rows) + per_page - 1) // per_page, 1)
    number = min(max(number or 1, 1), pages)
    start = (number - 1) * per_page
    shown = rows[start : start + per_page]
    return BoardPage(shown, number, pages, start + 1 if shown else 0, start + len(shown), len(rows))
