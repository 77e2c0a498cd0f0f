"""A series' tables as the director's pages list them: filtered by state, a page at a time.

The dashboard's tiles and the series page read every table's progress
(:func:`dashboard.progress.table_progress`, a fixed number of queries) to count the
states, then show one page of the tables in the chosen state; only that page's seats
are loaded. A 750-table series is a few dozen tiles or rows per page, and the filters
(playing, behind, awaiting confirmation, confirmed, second list differs) find the
tables that need the director.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.core.paginator import Page
from django.http import HttpRequest
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy

from core.paging import page_of
from core.params import number_param
from tournaments.models import Seat, Series
from tournaments.names import query_words

from .progress import TableProgress, table_progress

#: The filters by state: key of ``?state=``, its label, which tables it keeps.
STATES: dict[str, tuple[Promise, Callable[[TableProgress], bool]]] = {
    "playing": (gettext_lazy("playing"), lambda t: not t.finished),
    "behind": (gettext_lazy("behind"), lambda t: t.behind),
    "awaiting": (gettext_lazy("awaiting confirmation"), lambda t: t.awaiting),
    "confirmed": (gettext_lazy("confirmed"), lambda t: t.confirmed),
    "differ": (gettext_lazy("second list differs"), lambda t: bool(t.lists_differ)),
}

#: Tiles on a page of the dashboard; rows on a page of the series page.
TILES_PER_PAGE = 120
ROWS_PER_PAGE = 50


@dataclass(frozen=True)
class Filter:
    key: str
    label: Promise | str
    count: int
    active: bool


@dataclass(frozen=True)
class TableList:
    """Every table's progress (for the counts and the finish check) and the page shown."""

    tables: list[TableProgress]
    page: Page
    filters: tuple[Filter, ...]
    state: str
    query: str

    @property
    def finished(self) -> int:
        return sum(t.finished for t in self.tables)

    @property
    def behind(self) -> int:
        return sum(t.behind for t in self.tables)

    @property
    def confirmed(self) -> int:
        return sum(t.confirmed for t in self.tables)

    @property
    def awaiting(self) -> int:
        return sum(t.awaiting for t in self.tables)


def table_list(request: HttpRequest, series: Series | None, per_page: int, *, seats: bool = True) -> TableList:
    """The tables of ``series`` in the state ``?state=`` asks for (all by default), those
    seating a player ``?q=`` names (any word order, accents folded), page ``?page=``.

    ``seats``: load the seated players of the page's tables (one query for the page).
    """
    tables = table_progress(series) if series is not None else []
    state = request.GET.get("state", "")
    if state not in STATES:
        state = ""
    query = request.GET.get("q", "").strip()
    shown = [t for t in tables if STATES[state][1](t)] if state else tables
    if query and series is not None:
        seated = _tables_seating(series, query)
        shown = [t for t in shown if t.pk in seated]
    page = page_of(request, shown, per_page)
    if seats:
        with_seats(page.object_list)
    by_state = [
        Filter(key, label, sum(1 for t in tables if keep(t)), key == state) for key, (label, keep) in STATES.items()
    ]
    filters = (Filter("", gettext_lazy("all"), len(tables), not state), *by_state)
    return TableList(tables=tables, page=page, filters=filters, state=state, query=query)


def with_seats(tables: list[TableProgress]) -> None:
    """The seated players' names (in seat order) of just these tables: one query."""
    by_pk = {t.pk: [] for t in tables}
    seats = Seat.objects.filter(table_id__in=list(by_pk)).order_by("table_id", "number")
    for table_id, name in seats.values_list("table_id", "player__name"):
        by_pk[table_id].append(name)
    for table in tables:
        table.players = tuple(by_pk[table.pk])


def _tables_seating(series: Series, query: str) -> set[int]:
    """The ids of the series' tables seating a player whose name has every word of ``query``
    at the start of a word (tournaments.names' search key), or whose start number it is."""
    seats = Seat.objects.filter(table__series=series)
    if query.isdigit():  # "²" passes isdigit() but is no number: no table
        number = number_param(query)
        if number is None:
            return set()
        seats = seats.filter(
            player__registrations__tournament_id=series.tournament_id,
            player__registrations__start_number=number,
        )
    else:
        for word in query_words(query):
            seats = seats.filter(player__search_key__contains=f" {word}")
    return set(seats.values_list("table_id", flat=True))
