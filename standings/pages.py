"""The standings as pages: a scope's ranked rows computed once per change of the results,
then searched, sorted and cut into pages per request.

A 3,000-player ranking list is too long for a phone and too slow to render whole on
every refresh (2.9 MB). :func:`board` computes a scope's rows (overall or one series,
a category's own ranking, the players or the teams) once per results mark and keeps
them in the cache (:mod:`standings.cache`); :func:`standings_page` finds the
players a search names, sorts and cuts out one page. The full list stays available as
the ranking list PDF and as CSV.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlencode

from django.core.paginator import Page, Paginator
from django.http import QueryDict

from core.params import number_param
from tournaments.models import Category, Registration, Tournament
from tournaments.names import query_words, search_key

from .cache import Mark, cache_key, cached
from .categories import within_category
from .places import Finality, finality, standings, team_standings
from .tables import StandingsTable, TeamStandingsTable, rows, team_rows
from .tally import ranked

#: Rows on a page of the standings: a phone scrolls 50 rows easily, and the page stays small.
PER_PAGE = 50
#: The longest search text read (a name of a few words or a start number).
QUERY_LENGTH = 80


@dataclass(frozen=True, slots=True)
class Scope:
    """What the standings show: overall or one series, a category's players, or the teams."""

    series_number: int | None = None
    category: Category | None = None
    teams: bool = False

    @property
    def all_players(self) -> bool:
        """The whole tournament's players' ranking (what :mod:`standings.tally` keeps up to
        date in each process, which :func:`board` brings up to date for this scope)."""
        return self.series_number is None and self.category is None and not self.teams

    def key(self) -> tuple:
        return (self.series_number or 0, "teams" if self.teams else (self.category.pk if self.category else 0))


@dataclass(slots=True)
class Board:
    """A scope's ranked rows (dicts for :class:`standings.tables.StandingsTable`; a team's with
    its search key) and how final they are. Holds no translated text: one
    entry serves every language."""

    rows: list[dict]
    finality: Finality


def board(tournament: Tournament, mark: Mark, scope: Scope) -> Board:
    """The scope's rows as they stand at ``mark`` (or a little later) and how final they are:
    the players' overall or series ranking from this process's :mod:`standings.tally` (a
    change of the results costs the tables it touched, no query more); a category's or
    the teams' from the cache or computed (five queries at most:
    :func:`standings.places.standings`, the teams or the category,
    :func:`standings.places.finality`). The rows are shared: copy one before changing it."""
    if scope.teams or scope.category is not None:
        return cached(cache_key(tournament, mark, "board", *scope.key()), lambda: _compute_board(tournament, scope))
    return Board(*ranked(tournament, scope.series_number, mark))


def _compute_board(tournament: Tournament, scope: Scope) -> Board:
    players = standings(tournament, scope.series_number)
    if scope.teams:
        data = team_rows(team_standings(tournament, scope.series_number, players=players))
        for row in data:  # a team is found by its name or a player's
            row["key"] = search_key(" ".join([row["name"], *(name for name, _rating in row["members"])]))
    else:
        data = rows(within_category(players, scope.category))
    return Board(data, finality(tournament, scope.series_number))


def matching(tournament: Tournament, data: list[dict], query: str, teams: bool = False) -> list[dict]:
    """The rows a search names, keeping their places: a player's start number, or every
    word at the start of a word of the name in any order, accents and umlauts folded
    (the door's search keys, tournaments.names; one query). Teams: by the team's or a
    player's name."""
    query = query.strip()[:QUERY_LENGTH]
    if not query:
        return data
    number = number_param(query)
    if number is not None and not teams:
        return [row for row in data if row.get("start_number") == number]
    words = query_words(query)
    if teams:
        return [row for row in data if all(f" {word}" in row["key"] for word in words)]
    players = Registration.objects.filter(tournament=tournament)
    for word in words:
        players = players.filter(player__search_key__contains=f" {word}")
    found = set(players.values_list("player_id", flat=True))
    return [row for row in data if row["player_id"] in found]


def sorted_rows(data: list[dict], table_class: type[StandingsTable], sort: str | None) -> list[dict]:
    """``data`` in the order a heading's ``?sort=`` asks for, as the table would sort it,
    with plain keys: the table's own sorting compares row by row, too slow for 3,000
    rows on every page. An unknown or missing sort keeps the ranking's order."""
    descending = bool(sort) and sort.startswith("-")
    name = (sort or "").lstrip("-")
    column = table_class.base_columns.get(name)
    if column is None or column.orderable is False or (name == "place" and not descending):
        return data
    spec = list(column.order_by or (name,))
    result = list(data)
    for field in reversed(spec):  # stable sorts, the last criterion first
        field_descending = field.startswith("-") != descending
        field = field.lstrip("-")
        result.sort(key=lambda row, f=field: (row.get(f) is None, row.get(f)), reverse=field_descending)
    return result


@dataclass(slots=True)
class PageLink:
    number: int | None  # None: the gap between far pages
    url: str
    current: bool


def page_links(query: QueryDict, page: Page, around: int = 2) -> list[PageLink]:
    """Links to the first, the last and the pages around the current one, with the gaps
    between them; each keeps the rest of the query (search, series, sort)."""
    last = page.paginator.num_pages
    wanted = sorted({1, last, *range(page.number - around, page.number + around + 1)} & set(range(1, last + 1)))
    links: list[PageLink] = []
    previous = 0
    for number in wanted:
        if number > previous + 1:
            links.append(PageLink(None, "", False))
        params = query.copy()
        params["page"] = str(number)
        links.append(PageLink(number, "?" + params.urlencode(), number == page.number))
        previous = number
    return links


@dataclass(slots=True)
class StandingsPage:
    table: StandingsTable
    page: Page
    links: list[PageLink]
    query: str
    found: int
    total: int


def standings_page(
    tournament: Tournament, data: list[dict], params: QueryDict, teams: bool, per_page: int = PER_PAGE
) -> StandingsPage:
    """One page of ``data`` for the request's ``?q=`` (search), ``?sort=`` and ``?page=``:
    a page out of range shows the nearest one, never an error."""
    table_class = TeamStandingsTable if teams else StandingsTable
    query = params.get("q", "")[:QUERY_LENGTH]
    found = matching(tournament, data, query, teams)
    ordered = sorted_rows(found, table_class, params.get("sort"))
    paginator = Paginator(ordered, per_page)
    page = paginator.get_page(number_param(params.get("page")) or 1)
    # The page's own rows: the view links each name, and the list's rows are shared (standings.tally).
    page.object_list = [dict(row) for row in page.object_list]
    table = table_class(list(page.object_list))
    return StandingsPage(table, page, page_links(params, page), query.strip(), len(found), len(data))


def scope_query(scope: Scope, **extra: object) -> str:
    """The query string that shows ``scope`` (for links to the other formats of the same list)."""
    params = {
        "series": scope.series_number or "",
        "view": "teams" if scope.teams else "",
        "category": scope.category.pk if scope.category and not scope.teams else "",
        **extra,
    }
    return urlencode({key: value for key, value in params.items() if value not in ("", None)})
