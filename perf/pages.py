"""The bench's page figures: every page at 3,000 players, as the server answers it.

Each page of :data:`PAGES` is requested with Django's test client in this process (so
the time is the server's: middleware, views, queries and templates, no network) by the
user who opens it in the hall: the director (a superuser, as ``manage.py serve``
creates him), a referee of the tournament, anybody (the published pages) or a phone
through a table link. Each row shows the median time of ``repeat`` requests after a
warm-up, the size of the answer, and the queries one request makes, against the
targets: HTML pages <= 100 ms median and <= 250 KiB; documents (PDF) are timed only.

Adding a page is one line in :data:`PAGES`: a name, a function of the :class:`Site`
that returns the URL, the user and, for documents or htmx refreshes, the kind and headers.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.test.utils import override_settings
from django.urls import NoReverseMatch, reverse

from referees.models import RefereeAssignment
from scoring.models import Game
from tournaments.models import Registration, Table, Tournament

from .league import Season, build_season
from .ranking import build_ranking, ranking_size
from .timing import MS, Log

KIB = 1024
#: The targets of every HTML page at 3,000 players.
TIME_TARGET = 100 * MS
SIZE_TARGET = 250 * KIB

DIRECTOR, REFEREE, ANYONE, TABLE_LINK = "director", "referee", "anyone", "table link"


@dataclass
class Site:
    """What the pages are opened on: the bench tournament, its people and a league season beside it."""

    tournament: Tournament
    table: Table  # a full table of four in the last series
    player_id: int
    registration_id: int
    game_id: int  # the first deal of ``table``
    season: Season
    users: dict[str, object] = field(default_factory=dict)
    #: A ranking of 200 tournaments and 3,000 players (perf.ranking).
    ranking: object = None

    @property
    def tid(self) -> int:
        return self.tournament.pk

    @property
    def last_series(self) -> int:
        return self.table.series.number


@dataclass(frozen=True)
class Page:
    name: str
    url: Callable[[Site], str]
    user: str
    document: bool = False  # a PDF: timed only, no HTML target
    headers: dict[str, str] = field(default_factory=dict)
    refresh: bool = False  # an unchanged refresh, sending back the first answer's ETag / Last-Modified


def _t(name: str, *rest: Callable[[Site], object]) -> Callable[[Site], str]:
    """The URL of ``name`` for the bench tournament, then any further arguments."""
    return lambda site: reverse(name, args=[site.tid, *(arg(site) for arg in rest)])


def _league(name: str, *rest: Callable[[Site], object]) -> Callable[[Site], str]:
    return lambda site: reverse(name, args=[site.season.league.pk, *(arg(site) for arg in rest)])


def _series(site: Site) -> int:
    return site.last_series


def _table(site: Site) -> int:
    return site.table.pk


def _table_number(site: Site) -> int:
    return site.table.number


def _player(site: Site) -> int:
    return site.player_id


def _registration(site: Site) -> int:
    return site.registration_id


def _game(site: Site) -> int:
    return site.game_id


def _day(site: Site) -> int:
    return site.season.match_days[-1].pk


def _team(site: Site) -> int:
    return site.season.teams[0].pk


def _ranking(name: str, *rest: Callable[[Site], object], query: str = "") -> Callable[[Site], str]:
    return lambda site: reverse(name, args=[site.ranking.pk, *(arg(site) for arg in rest)]) + query


def _ranked_player(site: Site) -> int:
    return site.ranking.lines.filter(category="").order_by("position").values_list("player_id", flat=True)[0]


def _own_page(site: Site) -> str:
    """A player's private page (the link his start card's QR code holds)."""
    from tournaments.models import Registration
    from tournaments.player_links import player_path

    return player_path(Registration.objects.get(pk=site.registration_id))


HTMX = {"HX-Request": "true"}

#: The pages, in the order printed. A new one is a line: name, URL, user (and kind).
PAGES: list[Page] = [
    Page("home", lambda site: reverse("director:home"), DIRECTOR),
    Page("director dashboard", _t("director:detail"), DIRECTOR),
    Page("progress", _t("director:progress"), DIRECTOR),
    Page("series page", _t("director:series", _series), DIRECTOR),
    Page("standings (director)", _t("director:standings"), DIRECTOR),
    Page("director's table page", _t("director:table", _series, _table_number), DIRECTOR),
    Page("office grid (paper list)", _t("director:grid", _series, _table_number), DIRECTOR),
    Page("players", _t("director:players"), DIRECTOR),
    Page("substitute a reserve", _t("director:substitute"), DIRECTOR),
    Page("door desk", _t("director:desk"), DIRECTOR),
    Page("fee account", _t("director:fee_account"), DIRECTOR),
    Page("statistics (director)", _t("director:statistics"), DIRECTOR),
    Page("player statistics (director)", _t("director:player_statistics", _player), DIRECTOR),
    Page("edit a player", _t("director:player_edit", _registration), DIRECTOR),
    Page("export page", _t("director:export"), DIRECTOR),
    Page("assign referees", _t("referees:assign"), DIRECTOR),
    Page("directors", _t("director:directors"), DIRECTOR),
    Page("edit tournament", _t("director:edit"), DIRECTOR),
    Page("new tournament", lambda site: reverse("director:create"), DIRECTOR),
    Page("start list PDF", _t("director:start_list_pdf"), DIRECTOR, document=True),
    Page("standings PDF", _t("director:standings_pdf"), DIRECTOR, document=True),
    Page("referee's tournaments", lambda site: reverse("referees:mine"), REFEREE),
    Page("referee board", _t("referees:board"), REFEREE),
    Page("referee table page", _t("referees:table", _table), REFEREE),
    Page("correct a deal (referee)", _t("referees:correct", _game), REFEREE),
    Page("new dispute (referee)", _t("referees:dispute_new"), REFEREE),
    Page("public standings", lambda site: reverse("public:standings", args=[site.tid]), ANYONE),
    Page(
        "public standings, unchanged refresh",
        lambda site: reverse("public:standings", args=[site.tid]),
        ANYONE,
        refresh=True,
    ),
    Page(
        "standings CSV (public)", lambda site: reverse("public:standings_csv", args=[site.tid]), ANYONE, document=True
    ),
    Page("statistics (public)", lambda site: reverse("public:statistics", args=[site.tid]), ANYONE),
    Page(
        "player statistics (public)",
        lambda site: reverse("public:player_statistics", args=[site.tid, site.player_id]),
        ANYONE,
    ),
    Page("live page (projector)", lambda site: reverse("public:live", args=[site.tid]), ANYONE),
    Page("live page, htmx refresh", lambda site: reverse("public:live", args=[site.tid]), ANYONE, headers=HTMX),
    Page("player's own page", lambda site: _own_page(site), ANYONE),
    Page("where do I sit? (lookup form)", _t("player:lookup"), ANYONE),
    Page("start cards PDF", _t("director:start_cards_pdf"), DIRECTOR, document=True),
    Page("table link page", lambda site: reverse("table:sheet", args=[site.table.token]), TABLE_LINK),
    Page("second list page", lambda site: reverse("table:sheet", args=[site.table.control_token]), TABLE_LINK),
    Page("table link dispute", lambda site: reverse("table:dispute", args=[site.table.token]), TABLE_LINK),
    Page("league page (staff)", _league("leagues:league"), DIRECTOR),
    Page("league settings (staff)", _league("leagues:settings"), DIRECTOR),
    Page("team and roster (staff)", _league("leagues:team_edit", _team), DIRECTOR),
    Page("hosts (staff)", _league("leagues:hosts"), DIRECTOR),
    Page("league managers (staff)", _league("leagues:managers"), DIRECTOR),
    Page("season table (staff)", _league("leagues:season"), DIRECTOR),
    Page("match day page (staff)", lambda site: reverse("leagues:match_day", args=[_day(site)]), DIRECTOR),
    Page("season table (public)", _league("public:season"), ANYONE),
    Page("match day page (public)", _league("public:match_day", _day), ANYONE),
    Page("team page (public)", _league("public:team", _team), ANYONE),
    Page("match report (staff)", lambda site: reverse("leagueoffice:report", args=[_day(site)]), DIRECTOR),
    Page(
        "match report PDF", lambda site: reverse("leagueoffice:report_pdf", args=[_day(site)]), DIRECTOR, document=True
    ),
    Page("league rights (administrator)", lambda site: reverse("leagueoffice:rights"), DIRECTOR),
    Page("end of the season (staff)", _league("seasons:end"), DIRECTOR),
    Page("individual ranking (staff)", _league("seasons:players"), DIRECTOR),
    Page("individual ranking (public)", _league("public:league_players"), ANYONE),
    Page("cross table (public)", _league("public:league_cross"), ANYONE),
    Page("ranking, 200 tournaments (staff)", _ranking("rankings:ranking"), DIRECTOR),
    Page("ranking, page 40 (staff)", _ranking("rankings:ranking", query="?page=40"), DIRECTOR),
    Page("ranking, a search (staff)", _ranking("rankings:ranking", query="?q=mueller"), DIRECTOR),
    Page("ranking, a category (public)", _ranking("public:ranking", query="?category=Damen"), ANYONE),
    Page("ranking, a player's line (public)", _ranking("public:ranking_player", _ranked_player), ANYONE),
    Page("ranking: who is who (staff)", _ranking("rankings:people"), DIRECTOR),
    Page("ranking PDF", _ranking("rankings:file", lambda site: "pdf"), DIRECTOR, document=True),
]


def prepare(tournament: Tournament, log: Log = print) -> Site:
    """The people and the league the pages need, beside the built tournament (untimed).

    The standings are published (the public pages answer), a referee is assigned, and a
    small league season is played with the director as its manager.
    """
    users = get_user_model()
    director = users.objects.create_superuser("bench-director", email="", password=None)
    referee = users.objects.create_user("bench-referee", password=None)
    tournament.directors.add(director)
    RefereeAssignment.objects.create(tournament=tournament, user=referee)
    Tournament.objects.filter(pk=tournament.pk).update(standings_public=True)
    tournament.refresh_from_db()
    last = tournament.series.order_by("-number").first()
    table = last.tables.filter(size=4).order_by("number").first() or last.tables.order_by("number").first()
    registration = Registration.objects.filter(tournament=tournament).order_by("pk").first()
    game = Game.objects.filter(table=table).order_by("number").first()
    started = time.perf_counter()
    season = build_season(director)
    log(
        f"  league season: {len(season.teams)} teams, {len(season.match_days)} match days"
        f" ({time.perf_counter() - started:.1f} s)"
    )
    return Site(
        tournament,
        table,
        registration.player_id,
        registration.pk,
        game.pk,
        season,
        {DIRECTOR: director, REFEREE: referee},
        ranking=build_ranking(director, **ranking_size(registration.tournament.registrations.count()), log=log),
    )


@dataclass
class PageResult:
    """One page: its median time, size and queries, against the targets."""

    median: float | None
    size: int | None = None
    queries: int | None = None
    status: int | None = None
    document: bool = False
    note: str = ""

    @property
    def available(self) -> bool:
        return self.median is not None

    @property
    def ok(self) -> bool:
        if not self.available or self.document:
            return True
        return self.median <= TIME_TARGET and (self.size or 0) <= SIZE_TARGET


class QueryCount:
    """Counts the queries run through it (``connection.execute_wrapper``), whatever DEBUG's query log holds."""

    def __init__(self) -> None:
        self.count = 0

    def __call__(self, execute, sql, params, many, context):
        self.count += 1
        return execute(sql, params, many, context)


def _body(response) -> bytes:
    if getattr(response, "streaming", False):
        return b"".join(response.streaming_content)
    return response.content


def _client(site: Site, user: str) -> Client:
    client = Client()
    if user in site.users:
        client.force_login(site.users[user])
    return client


def _validators(response) -> dict[str, str]:
    """What a browser sends back on a refresh: If-None-Match for an ETag, If-Modified-Since for Last-Modified."""
    headers = {}
    if response.has_header("ETag"):
        headers["If-None-Match"] = response["ETag"]
    if response.has_header("Last-Modified"):
        headers["If-Modified-Since"] = response["Last-Modified"]
    return headers


def measure_page(site: Site, page: Page, repeat: int) -> PageResult:
    """The page's median server time over ``repeat`` requests (after a warm-up), its size and queries."""
    try:
        url = page.url(site)
    except NoReverseMatch:
        return PageResult(None, note="not available (no such URL name)")
    client = _client(site, page.user)
    with override_settings(ALLOWED_HOSTS=["testserver"], SECURE_SSL_REDIRECT=False):
        first = client.get(url, headers=page.headers)
        _body(first)
        headers = dict(page.headers)
        note = ""
        if page.refresh:
            validators = _validators(first)
            headers |= validators
            note = (
                "sends back " + " and ".join(validators)
                if validators
                else "no ETag or Last-Modified sent: every refresh is the whole page"
            )
        queries = QueryCount()
        with connection.execute_wrapper(queries):
            response = client.get(url, headers=headers)
            body = _body(response)
        if response.status_code not in (200, 304):
            return PageResult(None, status=response.status_code, note=f"answered {response.status_code} at {url}")
        times = []
        runs = min(repeat, 3) if page.document else repeat
        for _ in range(max(1, runs)):
            start = time.perf_counter()
            _body(client.get(url, headers=headers))
            times.append(time.perf_counter() - start)
    if page.refresh:
        note = f"{note}; answered {response.status_code}"
    elif page.document:
        note = f"{response['Content-Type'].split(';')[0]}, timed only"
    return PageResult(
        statistics.median(times),
        size=len(body),
        queries=queries.count,
        status=response.status_code,
        document=page.document,
        note=note,
    )
