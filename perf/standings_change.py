"""What a change of the results costs the public standings and the projector (bench figures).

One deal is entered (a seat total changes: the last deal of a table of the last series
taken away or entered again, untimed), then the next public request is timed through
the test client: the first after the change, the one that brings the standings up to
date (:mod:`standings.tally`) and renders and stores the page. Public pages follow
every change here (``STANDINGS_SETTLE_SECONDS`` 0); in the hall they move once per
settling window, so this is the cost of one move. The floor is the same request again
with nothing changed: the page from the cache.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable

from django.db import transaction
from django.test import Client
from django.test.utils import override_settings
from django.urls import reverse

from scoring.models import Game
from standings import tally
from tournaments.models import Tournament

from .timing import Result

#: The target: a change costs the page a few milliseconds, whatever the field (see the docs' row).
TARGET = 0.020


def _one_deal(games: list[Game], turn: int) -> None:
    """Turn by turn, a table's last declared deal taken away (the first half of the turns),
    then entered again: each moves its seats' totals and the table's counter once."""
    game = games[turn % len(games)]
    with transaction.atomic():
        if turn < len(games):
            Game.objects.filter(pk=game.pk).delete()
        else:
            game.pk = None
            game._state.adding = True
            game.save()


def _measure(tournament: Tournament, repeat: int, url: str) -> tuple[float, float]:
    Tournament.objects.filter(pk=tournament.pk).update(standings_public=True)
    series = tournament.series.order_by("-number").first()
    turns = max(repeat, 21)
    games = []
    for table in series.tables.order_by("number")[: (turns + 1) // 2]:
        last = table.games.filter(declarer_seat__isnull=False).order_by("-number").first()
        if last is not None:
            games.append(last)
    if not games:
        raise RuntimeError("the last series has no declared deal")
    changed: list[float] = []
    unchanged: list[float] = []
    with override_settings(ALLOWED_HOSTS=["testserver"], SECURE_SSL_REDIRECT=False, STANDINGS_SETTLE_SECONDS=0):
        client = Client()
        _get(client, url)  # the process's first: the standings computed whole, once
        for turn in range(2 * len(games)):
            _one_deal(games, turn)
            changed.append(_timed(lambda: _get(client, url)))
            unchanged.append(_timed(lambda: _get(client, url)))
    return statistics.median(changed), statistics.median(unchanged)


def _get(client: Client, url: str) -> None:
    response = client.get(url)
    if response.status_code != 200:
        raise RuntimeError(f"{url}: {response.status_code}")


def _timed(call: Callable[[], None]) -> float:
    start = time.perf_counter()
    call()
    return time.perf_counter() - start


def measure_public_standings(ctx) -> Result:
    """The public standings' first page, the first request after a deal."""
    tournament = ctx.tournament
    before = tally.counts()
    median, floor = _measure(tournament, ctx.repeat, reverse("public:standings", args=[tournament.pk]))
    after = tally.counts()
    builds, updates = after["builds"] - before["builds"], after["updates"] - before["updates"]
    return Result(
        median,
        floor=floor,
        target=TARGET,
        note=(
            f"{tournament.registrations.count()} players; floor: the page again, unchanged (cache);"
            f" computed whole {builds}x, moved by tables {updates}x"
        ),
    )


def measure_projector(ctx) -> Result:
    """The projector's first standings page (what its htmx rotation fetches), the first request after a deal."""
    tournament = ctx.tournament
    url = reverse("public:live", args=[tournament.pk]) + "?part=board&page=1"
    median, floor = _measure(tournament, ctx.repeat, url)
    return Result(median, floor=floor, target=TARGET, note="floor: the page again, unchanged (cache)")
