"""The standings pages: the director's, the public one once published, the projector's
live page and the full list as CSV and PDF. Thin: standings.places ranks,
standings.pages pages and searches, standings.live_board lays out the projector,
standings.cache keeps what they computed until the results change."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Exists, OuterRef
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.urls import reverse
from django_tables2 import RequestConfig

from core.addresses import absolute_link
from core.params import number_param
from tournaments import hooks
from tournaments.lookups import published_tournament
from tournaments.models import Category, Team, Tournament
from tournaments.permissions import results_reader_required

from .cache import Mark, cache_key, cached, conditional, given_back, lookup, lookup_or_claim, mark_of, own_key, store
from .categories import CategoryError, chosen_category
from .claims import release
from .files import csv_response
from .list_html import table_html
from .live_board import board_page, progress, seconds_param
from .pages import Scope, board, scope_query, standings_page
from .seat_board import PER_SCREEN, columns, seat_rows, waiting_state


@dataclass(slots=True)
class Outline:
    """What the scope links offer: the drawn series, the categories, whether there are teams
    (two queries, three with categories; once per change of the tournament's own counter)."""

    numbers: list[int]
    categories: list[Category]
    has_teams: bool


def _outline(tournament: Tournament, mark: Mark) -> Outline:
    def compute() -> Outline:
        numbers = list(tournament.series.order_by("number").values_list("number", flat=True))
        teams = Team.objects.filter(tournament=OuterRef("pk"))
        categories = Category.objects.filter(tournament=OuterRef("pk"))
        has_teams, has_categories = (
            Tournament.objects.filter(pk=tournament.pk).values_list(Exists(teams), Exists(categories)).get()
        )
        return Outline(numbers, list(tournament.categories.all()) if has_categories else [], has_teams)

    # Series, teams and categories count on the tournament's own counter: not read again per deal.
    return cached(own_key(tournament, mark, "outline"), compute)


def _scope(request: HttpRequest, tournament: Tournament, outline: Outline) -> Scope:
    """The scope ``?series=``, ``?category=`` and ``?view=teams`` ask for; an unknown series
    shows the overall standings, an unknown category raises :class:`CategoryError`."""
    selected = number_param(request.GET.get("series"))
    category = chosen_category(tournament, request.GET.get("category"), outline.categories)
    # The team ranking is offered once the tournament has teams; ?view=teams shows it.
    teams = outline.has_teams and request.GET.get("view") == "teams"
    return Scope(selected if selected in outline.numbers else None, None if teams else category, teams)


def scope_for(request: HttpRequest, tournament: Tournament, mark: Mark) -> Scope:
    """The scope the request asks for (series, category, teams): raises CategoryError."""
    return _scope(request, tournament, _outline(tournament, mark))


#: A player id no row has, for the link pattern of a page's names.
ANY_PLAYER = 987654321987


def _standings_context(request: HttpRequest, tournament: Tournament, public: bool) -> dict:
    mark = mark_of(request, tournament)
    outline = _outline(tournament, mark)
    scope = _scope(request, tournament, outline)
    found = board(tournament, mark, scope)
    shown = standings_page(tournament, found.rows, request.GET, scope.teams)
    if not scope.teams:  # each name links to the player's statistics page (on this page only)
        link = "public:player_statistics" if public else "director:player_statistics"
        # One reverse() for the page, not one a row: the player's id put in its place.
        pattern = reverse(link, args=[tournament.pk, ANY_PLAYER])
        for row in shown.page.object_list:
            row["url"] = pattern.replace(str(ANY_PLAYER), str(int(row["player_id"])))
    RequestConfig(request, paginate=False).configure(shown.table)
    finished = found.finality
    query = scope_query(scope)
    return {
        "tournament": tournament,
        "public": public,
        "table": shown.table,
        # django-tables2's markup, written directly (standings.list_html): a tenth of its cost.
        "table_html": table_html(shown.table, request),
        "page": shown.page,
        "page_links": shown.links,
        "query": shown.query,
        "found": shown.found,
        "total": shown.total,
        "scope_query": query,
        "pdf_url": reverse("public:standings_pdf" if public else "director:standings_pdf", args=[tournament.pk])
        + (f"?{query}" if query else ""),
        "csv_url": reverse("public:standings_csv", args=[tournament.pk]) + (f"?{query}" if query else ""),
        "numbers": outline.numbers,
        "series_number": scope.series_number,
        "has_teams": outline.has_teams,
        "categories": outline.categories,
        "category": scope.category,
        "teams_view": scope.teams,
        "sheets_confirmed": finished.confirmed,
        "sheets": finished.sheets,
        "finality": finished,
        "unfinished": ", ".join(map(str, finished.unfinished)),
    }


def bad_category(request: HttpRequest, tournament: Tournament, error: CategoryError) -> HttpResponse:
    return render(request, "core/bad_request.html", {"tournament": tournament, "message": error}, status=400)


#: What the page around the list shows (standings.html): kept with the list's HTML, so a
#: page of the list already rendered is sent without reading the ranked rows again.
PAGE_KEYS = (
    "public", "query", "total", "scope_query", "pdf_url", "csv_url", "numbers", "series_number", "has_teams",
    "categories", "category", "teams_view", "sheets_confirmed", "sheets", "finality", "unfinished",
)  # fmt: skip


def _standings(request: HttpRequest, tournament: Tournament, public: bool) -> HttpResponse:
    if request.GET.get("q", "").strip():  # a search: a few rows, rendered for it
        try:
            context = _standings_context(request, tournament, public)
        except CategoryError as error:
            return bad_category(request, tournament, error)
        page = {"html": render_to_string("standings/_standings_list.html", context, request)}
        page |= {name: context[name] for name in PAGE_KEYS}
    else:  # a page of the list: rendered once per change of the results and language
        # Keyed by the whole query: the page links and the headings' sort links keep every parameter.
        shown = sorted(request.GET.lists())
        key = cache_key(tournament, mark_of(request, tournament), "list", public, *shown, language=True)
        page = lookup_or_claim(key)
        if page is None:
            with given_back(key):
                try:
                    context = _standings_context(request, tournament, public)
                except CategoryError as error:
                    release(key)
                    return bad_category(request, tournament, error)
                page = {"html": render_to_string("standings/_standings_list.html", context, request)}
                page |= {name: context[name] for name in PAGE_KEYS}
            store(key, page)  # gives the claim back
    # The search box asks for the list only (htmx); a reload or a link gets the whole page.
    if request.htmx and request.htmx.target == "standings-list":
        return HttpResponse(page["html"])
    context = {name: value for name, value in page.items() if name != "html"}
    context |= {"tournament": tournament, "list_html": page["html"]}
    return render(request, "standings/standings.html", context)


@results_reader_required
@conditional(lagging=False)
def standings_view(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The director's standings, a page at a time; the tournament's referees may read them
    too (the page changes nothing). ``?category=<id>``: the category's own ranking;
    ``?q=``: find a player by name or start number; ``?page=``, ``?sort=``."""
    return _standings(request, tournament, public=False)


def public_standings(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """Standings for everybody, once the director publishes them: an unchanged refresh is a 304."""
    return _public_standings(request, published_tournament(request, tournament_id))


@conditional
def _public_standings(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    return _standings(request, tournament, public=True)


def _waiting(tournament: Tournament, mark: Mark) -> int | None:
    """:func:`standings.seat_board.waiting_series`: one query per results mark while the newest
    series is drawn and not started (its first deal ends the wait), none per deal once it
    runs (until the tournament's own counter moves: a draw, a status)."""
    settled = own_key(tournament, mark, "not-waiting")
    if lookup(settled):
        return None

    def compute() -> int:
        number, may_change = waiting_state(tournament)
        if not may_change:
            store(settled, True)
        return number or 0

    return cached(cache_key(tournament, mark, "waiting"), compute) or None


def live(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The projector page: the standings a page at a time, rotating (``?seconds=`` per page),
    with the series' progress and a clock. ``?part=board&page=<n>``: page n's board
    only, what static/js/projector.js fetches next: the screen is the hall's, so it turns
    only while the standings are public, also in the director's own logged-in browser (a
    director may open the page to look before publishing; withdrawn, it leaves the screen).
    After a draw, until the series' first deal, the screen turns through "where do I sit"
    first (``?part=seats&page=<n>``, standings.seat_board), then the standings."""
    tournament = published_tournament(request, tournament_id)
    if request.GET.get("part") in ("board", "seats") and not tournament.standings_public:
        raise Http404
    return _live(request, tournament)


@conditional
def _live(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    mark = mark_of(request, tournament)
    outline = _outline(tournament, mark)
    try:
        scope = _scope(request, tournament, outline)
    except CategoryError as error:
        return bad_category(request, tournament, error)
    number = number_param(request.GET.get("page"))
    url = reverse("public:live", args=[tournament.pk])
    # The series drawn and not started: its seats come first on the screen.
    waiting = _waiting(tournament, mark)
    seats_first = f"{url}?{scope_query(scope, page=1, part='seats')}" if waiting else None

    def render_board() -> str:
        found = board(tournament, mark, scope)
        page = board_page(found.rows, number)
        context = {
            "tournament": tournament,
            "board": page,
            "teams_view": scope.teams,
            "progress": progress(
                tournament,
                mark,
                [scope.series_number] if scope.series_number else outline.numbers,
                found.finality,
                current=scope.all_players,  # board() has just brought the whole tournament's up to date
            ),
            "finality": found.finality,
            "next_url": seats_first
            if seats_first and page.next == 1
            else f"{url}?{scope_query(scope, page=page.next, part='board')}",
        }
        return render_to_string("standings/_live_table.html", context)

    def render_seats() -> str:
        rows = cached(cache_key(tournament, mark, "seat-rows", waiting), lambda: seat_rows(tournament, waiting))
        page = board_page(rows, number, per_page=PER_SCREEN)
        last = page.number == page.pages
        after = "board" if last else "seats"  # the last seat screen leads to the standings
        context = {
            "series": waiting,
            "board": page,
            "columns": columns(page.rows),
            "lookup_url": absolute_link(request, reverse("player:lookup", args=[tournament.pk])),
            "next_url": f"{url}?{scope_query(scope, page=1 if last else page.next, part=after)}",
        }
        return render_to_string("standings/_seat_board.html", context)

    part = request.GET.get("part")
    if waiting and (part == "seats" or (part is None and not request.htmx)):
        key = cache_key(tournament, mark, "live-seats", *scope.key(), number or 1, language=True)
        html = cached(key, render_seats)
    else:  # the standings; also a screen asking for seats once play has begun
        if part == "seats":
            number = 1
        html = cached(cache_key(tournament, mark, "live", *scope.key(), number or 1, language=True), render_board)
    if part in ("board", "seats") or request.htmx:  # htmx: a projector page of before the rotation
        return HttpResponse(html)
    context = {
        "tournament": tournament,
        "board_html": html,
        "teams_view": scope.teams,
        "series_number": scope.series_number,
        "category": scope.category,
        "seconds": seconds_param(request.GET.get("seconds")),
    }
    return render(request, "standings/live.html", context)


def standings_csv(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The full list of the scope as CSV (for a spreadsheet): every place, no paging; for
    everybody once published, for its director and referees always. Theirs shows every
    change at once, as their standings page does (the public one lags behind)."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    user = request.user
    if tournament.is_director(user) or hooks.reads_results(tournament, user):
        return _staff_standings_csv(request, tournament)
    if tournament.standings_public:
        return _public_standings_csv(request, tournament)
    raise Http404


def _standings_csv(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    mark = mark_of(request, tournament)
    try:
        scope = _scope(request, tournament, _outline(tournament, mark))
    except CategoryError as error:
        return bad_category(request, tournament, error)
    return csv_response(tournament, board(tournament, mark, scope).rows, scope)


_public_standings_csv = conditional(_standings_csv)
_staff_standings_csv = conditional(_standings_csv, lagging=False)
