"""Standings computed once per change of the results, and refreshes that cost nothing.

3,000 players' phones and every projector ask for the same standings again and again;
the results change a few times a second at most. So what a standings page shows is
kept in Django's cache (settings.CACHES: files every gunicorn worker shares) under the
tournament's **results mark** (:class:`scoring.models.ResultsMark`, counted by database
triggers on every change of what the pages show), and each page goes out with an ETag
and a Last-Modified made from the mark: a browser that asks again while nothing
changed gets a 304 after two small queries, and a stale cache entry is never read,
because a change gives a new key. Entries of old marks expire (:data:`TIMEOUT`) or
are culled.
"""

from __future__ import annotations

import hashlib
import logging
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from functools import wraps
from typing import Any, TypeVar

from django.conf import settings
from django.core.cache import cache
from django.db.models import Max, Q, Sum
from django.http import HttpRequest, HttpResponse
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.http import http_date
from django.utils.translation import get_language
from django.views.decorators.http import condition

from scoring.models import ResultsMark
from tournaments.models import Tournament

from .claims import CLAIM_SECONDS, claim, fresh, release

#: Seconds an entry is kept: long enough for a quiet evening, short enough that the
#: entries of old marks do not pile up.
TIMEOUT = 3 * 60 * 60

T = TypeVar("T")

logger = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Mark:
    """How often the tournament's results have changed, and when they last did.

    ``own``: the tournament's own counter then (scope 0: series, tables, seats, teams,
    categories, registrations, names), (version, changed_at); what depends on those
    only is kept per change of it (:func:`own_key`), not per deal. Not compared: the
    version counts it already."""

    version: int
    changed_at: datetime | None
    own: tuple | None = field(default=None, compare=False)


def results_mark(tournament: Tournament) -> Mark:
    """The tournament's results mark: one query over its counters (a few thousand rows at most)."""
    own = Q(scope=0)
    found = ResultsMark.objects.filter(tournament=tournament).aggregate(
        total=Sum("version"),
        last=Max("changed_at"),
        own_version=Max("version", filter=own),
        own_at=Max("changed_at", filter=own),
    )
    return Mark(found["total"] or 0, found["last"], (found["own_version"] or 0, found["own_at"]))


def own_key(tournament: Tournament, mark: Mark, *parts: object) -> str:
    """The key of something made from what only the tournament's own counter counts (the
    series drawn, the teams, the categories): kept until that changes, whatever the deals;
    per ``mark`` where its own counter is not known."""
    if mark.own is None:
        return cache_key(tournament, mark, *parts)
    return cache_key(tournament, Mark(0, None), "own", *mark.own, *parts)


#: The public pages move to a newer mark at most once per this many times the seconds
#: the last move's page took: its computation then keeps a tenth of one core at most,
#: however long it takes (at 9,000 players in a loaded hall 1-2 s of wall time, 16-18 a
#: minute with a fixed 5 s, two processes computing the same page).
LAG_FACTOR = 10
#: ... and at least once per this many seconds while the results change: a slow moment
#: (a backup, a swapping laptop) must not freeze the public standings.
LAG_LONGEST = 60.0
#: A move claimed by a request that never finished it (a killed worker) is taken over
#: after this many seconds: until then the public pages show the mark before.
MOVE_CLAIM_SECONDS = 60.0


@dataclass(frozen=True, slots=True)
class Shown:
    """The mark the public pages show, since when (epoch seconds), and what the page that
    moved them to it took (seconds): the next move waits :func:`lag_seconds` of it."""

    mark: Mark
    since: float
    cost: float = 0.0


def lag_seconds(cost: float) -> float:
    """Seconds the public pages keep a mark: ``settings.STANDINGS_SETTLE_SECONDS`` at least,
    :data:`LAG_FACTOR` times the last move's ``cost`` when that is more (a computation
    that grows with the field or with the load is made rarer, not more frequent), at
    most :data:`LAG_LONGEST`."""
    shortest = getattr(settings, "STANDINGS_SETTLE_SECONDS", 0)
    return min(max(shortest, LAG_FACTOR * cost), max(shortest, LAG_LONGEST))


def _shown_key(tournament: Tournament) -> str:
    return cache_key(tournament, Mark(0, None), "shown")


def _move_key(tournament: Tournament) -> str:
    return cache_key(tournament, Mark(0, None), "moving")


def shown_now(tournament: Tournament) -> Shown | None:
    """What the public pages of ``tournament`` show (the cache every process shares), if known."""
    found = lookup(_shown_key(tournament))
    if not isinstance(found, tuple) or len(found) < 3:  # nothing yet, or an entry of an older release
        return None
    version, changed_at, since, *rest = found
    own = rest[1] if len(rest) > 1 else None  # an entry of an older release has no own counter
    return Shown(Mark(version, changed_at, own), since, rest[0] if rest else 0.0)


@dataclass(slots=True)
class Move:
    """A request's claim to move the public pages to ``mark``: it alone computes the new
    mark's first page; every other request meanwhile gets the mark shown so far."""

    tournament: Tournament
    mark: Mark
    since: float
    started: float

    def done(self, cost: float | None = None) -> None:
        """The new mark's page is computed: show it everywhere (``cost`` None: a move that
        computed nothing of its own keeps the window it had)."""
        if cost is None:
            before = shown_now(self.tournament)
            cost = before.cost if before else 0.0
        mark = self.mark
        store(_shown_key(self.tournament), (mark.version, mark.changed_at, self.since, cost, mark.own))
        release(_move_key(self.tournament))

    def failed(self) -> None:
        """The page was not computed (an error): the next request may try the move."""
        release(_move_key(self.tournament))


def public_mark(tournament: Tournament, mark: Mark, now: float | None = None) -> tuple[Mark, Move | None]:
    """The mark the public pages show, and the :class:`Move` when this request is to move them.

    In play the results change many times a second (2,250 tables at 9,000 players):
    computing the pages again for each change would cost more than the spectators'
    refreshes save. So the public pages follow the results with a delay: one move per
    :func:`lag_seconds`, whatever the number of changes, and one request moves them
    (an atomic :func:`claim` across the serving processes) while the others keep
    answering the mark shown so far, whose pages are in the cache: nobody waits for
    the new page nor computes it a second time. Each request's ETag is made from the
    mark it shows, so a browser is never told "unchanged" about a newer mark.
    """
    if getattr(settings, "STANDINGS_SETTLE_SECONDS", 0) <= 0:
        return mark, None
    now = time.time() if now is None else now
    shown = shown_now(tournament)
    if shown is not None and (shown.mark.version == mark.version or fresh(now - shown.since, lag_seconds(shown.cost))):
        return shown.mark, None
    if not claim(_move_key(tournament), MOVE_CLAIM_SECONDS):  # another request is computing the new mark
        return (shown.mark if shown is not None else mark), None
    return mark, Move(tournament, mark, now, time.monotonic())


@contextmanager
def computing_public_page(tournament: Tournament, mark: Mark) -> Iterator[Mark]:
    """:func:`public_mark` around a computation: a move is shown once the block has computed
    its page (the time it took sets the next window), dropped when the block fails."""
    shown, move = public_mark(tournament, mark)
    try:
        yield shown
    except BaseException:
        if move is not None:
            move.failed()
        raise
    if move is not None:
        move.done(time.monotonic() - move.started)


def mark_of(request: HttpRequest, tournament: Tournament) -> Mark:
    """The mark, read once per request: the ETag, Last-Modified and the view share it.
    Public pages (:func:`conditional` with ``lagging``) take the mark of :func:`public_mark`;
    a move it gives this request is finished by :func:`conditional` after the view."""
    marks = request.__dict__.setdefault("_results_marks", {})
    if tournament.pk not in marks:
        mark = results_mark(tournament)
        if request.__dict__.get("_lagging_marks"):
            mark, move = public_mark(tournament, mark)
            if move is not None:
                request.__dict__.setdefault("_moves", []).append(move)
        marks[tournament.pk] = mark
    return marks[tournament.pk]


def cache_key(tournament: Tournament, mark: Mark, *parts: object, language: bool = False) -> str:
    """The key of something computed from the tournament's results as they stand at ``mark``.

    The tournament's creation time is in it, so a tournament that gets the id of a
    deleted one (a test database's rollback) never reads the other's entries;
    ``language``: the entry holds translated text, one per language.
    """
    created = int(tournament.created_at.timestamp() * 1_000_000) if tournament.created_at else 0
    # Hashed: the parts may hold what a visitor typed (a sort, a page), and a key stays short and plain.
    scope = hashlib.sha256(":".join(str(part) for part in parts).encode()).hexdigest()[:40]
    tongue = (get_language() or "-") if language else "*"
    return f"standings:{tournament.pk}:{created}:{mark.version}:{tongue}:{scope}"


#: How long a request waits for the worker already computing the entry it needs.
WAIT_FOR_OTHER = 0.5


def cached(key: str, compute: Callable[[], T]) -> T:
    """The value under ``key``, computed and stored when missing (file cache: every worker shares it)."""
    value = lookup_or_claim(key)
    if value is None:
        with given_back(key):
            value = compute()
        store(key, value)
    return value


@contextmanager
def given_back(key: str) -> Iterator[None]:
    """Around the computation of a claimed ``key``: a failure gives the claim back, so the
    next request computes at once, and no claim file outlives it (nothing culls them)."""
    try:
        yield
    except BaseException:
        release(key)
        raise


def lookup_or_claim(key: str) -> Any:
    """The cached value; or None when this request is to compute it.

    When the results change, the next page computes (some 60 ms at 3,000 players) while
    the hall's spectators keep asking, about 100 a second: without a claim, each of them
    missed the entry too and computed the same page again, on the same two cores the
    phones' deals need. So the first request claims the entry and the others wait for it
    (asleep, for :data:`WAIT_FOR_OTHER` at most); if it has not come by then, or the
    cache cannot be used, they compute it themselves. :func:`store` gives the claim back.
    """
    value = lookup(key)
    if value is not None:
        return value
    if claim(key, CLAIM_SECONDS):
        # Another request may have stored it and given its claim back since the look above.
        value = lookup(key)
        if value is not None:
            release(key)
        return value
    deadline = time.monotonic() + WAIT_FOR_OTHER
    while time.monotonic() < deadline:
        time.sleep(0.01)
        value = lookup(key)
        if value is not None:
            return value
    return None


def lookup(key: str) -> Any:
    """The cached value, or None when the cache cannot be read: a cache directory that is
    gone, unwritable or full, or a file cut short, costs a computation, never the page."""
    try:
        return cache.get(key)
    except Exception as error:  # OSError, a truncated pickle, an entry of an older release
        logger.warning("standings cache not read (%s): %s", key, error)
        return None


def store(key: str, value: object) -> None:
    """Keep ``value`` if the cache can, and give back its :func:`~standings.claims.claim`;
    the page is served either way (see :func:`lookup`)."""
    try:
        cache.set(key, value, TIMEOUT)
    except Exception as error:  # a full disk, an unwritable directory
        logger.warning("standings cache not written (%s): %s", key, error)
    release(key)


def _etag(request: HttpRequest, tournament: Tournament, *args: Any, **kwargs: Any) -> str:
    """The page as this user sees it at this mark: the same only when nothing on it changed.

    The user is in it (the page's header says who is logged in) and the language, the
    whole address (page, search, series) and whether htmx asked for a part only; and a
    logged-in user's session: a new login gives a new CSRF secret, and the page's log-out
    and language forms must carry a token of it (a 304 would keep the old one).
    """
    mark = mark_of(request, tournament)
    user = request.user.pk if request.user.is_authenticated else 0
    session = (request.session.session_key or "") if user else ""
    created = tournament.created_at.timestamp() if tournament.created_at else 0
    text = "|".join(
        map(
            str,
            (
                tournament.pk,
                created,
                # The pages say whether the standings are published.
                tournament.standings_public,
                mark.version,
                get_language(),
                user,
                session,
                request.get_full_path(),
                _htmx(request),
            ),
        )
    )
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def _htmx(request: HttpRequest) -> str:
    """Which part htmx asked for ("" for the whole page): the same address answers both."""
    htmx = getattr(request, "htmx", None)
    return f"htmx:{htmx.target}" if htmx else ""


def conditional(view: Callable[..., HttpResponse] | None = None, *, lagging: bool = True):
    """ETag and Last-Modified from the results mark (django's ``condition``): an unchanged
    refresh (If-None-Match) is a 304. ``Cache-Control: no-cache`` makes browsers ask every time instead of
    guessing a lifetime from Last-Modified (a stale standings page on a phone).
    ``lagging``: the page shows the mark of :func:`public_mark` (public pages); the director's
    pages show every change at once (``lagging=False``)."""
    if view is None:
        return lambda view: conditional(view, lagging=lagging)
    # Only the ETag answers 304: Last-Modified counts whole seconds, and in play the
    # results change several times a second, so If-Modified-Since alone would call a
    # changed page unchanged. Last-Modified is still sent (it says when they changed).
    checked = condition(etag_func=_etag)(view)

    @wraps(view)
    def wrapper(request: HttpRequest, tournament: Tournament, *args: Any, **kwargs: Any) -> HttpResponse:
        request.__dict__["_lagging_marks"] = lagging
        try:
            response = checked(request, tournament, *args, **kwargs)
        except BaseException:
            for move in request.__dict__.pop("_moves", ()):
                move.failed()
            raise
        for move in request.__dict__.pop("_moves", ()):  # this request moved the public pages
            move.done(time.monotonic() - move.started)
        changed_at = mark_of(request, tournament).changed_at
        if response.status_code in (200, 304) and changed_at and not response.has_header("Last-Modified"):
            response.headers["Last-Modified"] = http_date(changed_at.timestamp())
        patch_cache_control(response, private=True, no_cache=True)
        patch_vary_headers(response, ("HX-Request",))
        return response

    return wrapper


def cached_standings(request: HttpRequest, tournament: Tournament) -> list:
    """The overall standings as they stand at the request's mark, computed once per change
    of the results (every worker shares them): the money pages name the prize winners
    from them without ranking 3,000 players on every view."""
    from .places import standings

    return cached(
        cache_key(tournament, mark_of(request, tournament), "overall-standings"), lambda: standings(tournament)
    )
