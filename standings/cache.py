"""Standings computed once per change of the results, and refreshes that cost nothing.

3,000 players' phones and every projector ask for the same standings again and again;
the results change a few times a second at most. So what a standings page shows is
kept in Django's cache (settings.CACHES: files every gunicorn worker shares) under the
tournament's **results mark** (:class:`games.models.ResultsMark`, counted by database
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
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from functools import wraps
from typing import Any, TypeVar

from django.conf import settings
from django.core.cache import cache
from django.db.models import Max, Sum
from django.http import HttpRequest, HttpResponse
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.http import http_date
from django.utils.translation import get_language
from django.views.decorators.http import condition

from games.models import ResultsMark
from tournaments.models import Tournament

#: Seconds an entry is kept: long enough for a quiet evening, short enough that the
#: entries of old marks do not pile up.
TIMEOUT = 3 * 60 * 60

T = TypeVar("T")

logger = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Mark:
    """How often the tournament's results have changed, and when they last did."""

    version: int
    changed_at: datetime | None


def results_mark(tournament: Tournament) -> Mark:
    """The tournament's results mark: one query over its counters (a few thousand rows at most)."""
    found = ResultsMark.objects.filter(tournament=tournament).aggregate(version=Sum("version"), at=Max("changed_at"))
    return Mark(found["version"] or 0, found["at"])


def settled_mark(tournament: Tournament, mark: Mark, now: float | None = None) -> Mark:
    """The mark the public pages show: ``mark``, or the one they last showed if that is at
    most ``settings.STANDINGS_SETTLE_SECONDS`` old.

    In play the results change many times a second (750 tables); computing the pages
    again for each change would cost more than the spectators' refreshes save. So the
    public pages follow the results with a few seconds' delay at most: one computation
    per tournament in that time, whatever the number of changes. The ETag is made from
    the mark shown, so a browser is never told "unchanged" about a newer mark.
    """
    window = getattr(settings, "STANDINGS_SETTLE_SECONDS", 0)
    if window <= 0:
        return mark
    now = time.time() if now is None else now
    key = cache_key(tournament, Mark(0, None), "shown")
    shown = lookup(key)
    if shown is not None:
        version, changed_at, since = shown
        if version == mark.version or now - since < window:
            return Mark(version, changed_at)
    store(key, (mark.version, mark.changed_at, now))
    return mark


def mark_of(request: HttpRequest, tournament: Tournament) -> Mark:
    """The mark, read once per request: the ETag, Last-Modified and the view share it.
    Public pages (:func:`conditional` with ``settle``) take the :func:`settled_mark`."""
    marks = request.__dict__.setdefault("_results_marks", {})
    if tournament.pk not in marks:
        mark = results_mark(tournament)
        marks[tournament.pk] = settled_mark(tournament, mark) if request.__dict__.get("_settle_marks") else mark
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
        value = compute()
        store(key, value)
    return value


def lookup_or_claim(key: str) -> Any:
    """The cached value; or None when this request is to compute it.

    When the results change, the next page computes (some 60 ms at 3,000 players) while
    the hall's spectators keep asking, about 100 a second: without a claim, each of them
    missed the entry too and computed the same page again, on the same two cores the
    phones' deals need. So the first request claims the entry and the others wait for it
    (asleep, for :data:`WAIT_FOR_OTHER` at most); if it has not come by then, or the
    cache cannot be used, they compute it themselves.
    """
    value = lookup(key)
    if value is not None:
        return value
    try:
        if cache.add(f"{key}:computing", True, timeout=10):
            return None
    except Exception as error:  # the cache cannot be written: compute here
        logger.warning("standings cache not claimed (%s): %s", key, error)
        return None
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
    """Keep ``value`` if the cache can; the page is served either way (see :func:`lookup`)."""
    try:
        cache.set(key, value, TIMEOUT)
    except Exception as error:  # a full disk, an unwritable directory
        logger.warning("standings cache not written (%s): %s", key, error)


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
                # The pages say whether the standings are published (issue 26, 10).
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


def conditional(view: Callable[..., HttpResponse] | None = None, *, settle: bool = True):
    """ETag and Last-Modified from the results mark (django's ``condition``): an unchanged
    refresh (If-None-Match) is a 304. ``Cache-Control: no-cache`` makes browsers ask every time instead of
    guessing a lifetime from Last-Modified (a stale standings page on a phone).
    ``settle``: the page shows the :func:`settled_mark` (public pages); the director's
    pages show every change at once (``settle=False``)."""
    if view is None:
        return lambda view: conditional(view, settle=settle)
    # Only the ETag answers 304: Last-Modified counts whole seconds, and in play the
    # results change several times a second, so If-Modified-Since alone would call a
    # changed page unchanged. Last-Modified is still sent (it says when they changed).
    checked = condition(etag_func=_etag)(view)

    @wraps(view)
    def wrapper(request: HttpRequest, tournament: Tournament, *args: Any, **kwargs: Any) -> HttpResponse:
        request.__dict__["_settle_marks"] = settle
        response = checked(request, tournament, *args, **kwargs)
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
    from .ranking import standings

    return cached(
        cache_key(tournament, mark_of(request, tournament), "overall-standings"), lambda: standings(tournament)
    )
