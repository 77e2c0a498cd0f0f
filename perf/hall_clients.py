"""The hall's simulated devices: two phones per table (the sheet and its second list) and the spectators.

A table plays a deal every 60-120 s (``Pace``). Its sheet phone enters it through the
table link as soon as it is played; the second list's phone (the table's control link,
scoring.lists) enters the same deal a few seconds later. Each phone keeps its deals in
order as the offline-first page does: a deal whose answer does not come (timeout, an
error) is sent again with the same ``client_id`` until the office confirms it, and
the next deal waits for it. A spectator reloads the public standings every 30 s and,
like a browser, sends back the ETag (``If-None-Match``) and Last-Modified
(``If-Modified-Since``) of the last answer.

Every device stops starting requests at ``deadline``; a request under way then is
answered or times out. All of it runs in one asyncio loop: light beside the office.
"""

from __future__ import annotations

import asyncio
import random
import re
import time
import uuid
from collections import Counter, defaultdict
from dataclasses import dataclass, field

from rehearsal.deals import deal_fields

from .client import HALL, request
from .fixtures import shown_version
from .scorekeepers import lean, wrong_answer

CLIENT_ID = re.compile(rb'name="client_id" value="([0-9a-f-]{36})"')
CSRF = re.compile(rb'name="csrfmiddlewaretoken" value="([^"]+)"')
COOKIE = re.compile(r"csrftoken=([^;]+)")


@dataclass(frozen=True)
class Pace:
    """How fast the hall plays and looks: seconds per deal at a table, and between two standings reloads."""

    deal_min: float = 60.0
    deal_max: float = 120.0
    control_lag: tuple[float, float] = (3.0, 20.0)  # the second list follows the sheet by this much
    poll: float = 30.0
    timeout: float = 30.0  # a phone's or browser's patience before it sends again


@dataclass
class HallStats:
    """Latencies (s) by kind, answers by status, and what the office confirmed to each phone."""

    latencies: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    statuses: Counter = field(default_factory=Counter)
    timeouts: Counter = field(default_factory=Counter)
    not_modified: int = 0
    busy: int = 0  # spectators told "busy, again in N s" (503 + Retry-After, config.admission)
    shed: int = 0  # link openings told "busy, again in N s" after waiting their turn (office.dispatch)
    resent: int = 0
    lean: int = 0  # deals confirmed with only what changed (perf.scorekeepers.lean)
    errors: list[str] = field(default_factory=list)
    # (list, table id) -> the deal numbers confirmed, in the order confirmed; and those unanswered at the end
    confirmed: dict[tuple[str, int], list[int]] = field(default_factory=lambda: defaultdict(list))
    pending: set[tuple[str, int, int]] = field(default_factory=set)

    def requests(self) -> int:
        return sum(self.statuses.values())


async def timed(stats: HallStats, kind: str, port: int, method: str, path: str, timeout: float, **kwargs):
    """One request to the hall address; its latency filed under ``kind`` (a timeout counts as ``timeout``)."""
    start = time.perf_counter()
    try:
        response = await request(port, method, path, timeout=timeout, host=HALL, **kwargs)
    except (TimeoutError, OSError) as error:
        stats.timeouts[kind] += 1
        stats.latencies[kind].append(
            max(time.perf_counter() - start, timeout if isinstance(error, TimeoutError) else 0)
        )
        if not isinstance(error, TimeoutError) and len(stats.errors) < 50:
            stats.errors.append(f"{method} {path}: {type(error).__name__} {error}")
        return None
    stats.latencies[kind].append(time.perf_counter() - start)
    stats.statuses[response.status] += 1
    return response


def _search(pattern: re.Pattern[bytes], body: bytes) -> re.Match[bytes] | None:
    """``pattern.search(body)``, started where its literal beginning first is: bytes.find is
    several times faster than the regex's own scan over an entry answer of 20-30 KB."""
    at = body.find(pattern.pattern.partition(b"(")[0])
    return pattern.search(body, at) if at >= 0 else None


def _form_fields(body: bytes, cookie: str) -> tuple[str, str]:
    """The next form's client id (new if the page has none) and CSRF token (the form's, else the cookie's)."""
    client_id, csrf = _search(CLIENT_ID, body), _search(CSRF, body)
    return (
        client_id.group(1).decode() if client_id else str(uuid.uuid4()),
        csrf.group(1).decode() if csrf else cookie,
    )


async def phone(
    port: int,
    table: dict,
    which: str,
    opened: float,
    deals: list[float],
    intended: dict,
    stats: HallStats,
    pace: Pace,
    deadline: float,
) -> None:
    """One phone keeping one list (``which``: "sheet" or "control") of one table, deal by deal in order.

    The phone opens its link at ``opened`` (loop time); ``deals`` are the moments each
    deal is played; ``intended[(table, n)]`` the fields of deal n, the same on both lists.
    """
    loop = asyncio.get_running_loop()
    await asyncio.sleep(max(0.0, opened - loop.time()))
    path = table["url"] if which == "sheet" else table["control_url"]
    page = None
    while page is None or page.status != 200:
        if loop.time() >= deadline:
            return
        page = await timed(stats, "open link", port, "GET", path, pace.timeout)
        if page is not None and page.status == 503 and "retry-after" in page.headers:
            # Told "busy, again in N s" (office.dispatch.ShedStale): the page reloads itself then.
            stats.shed += 1
            await asyncio.sleep(float(page.headers["retry-after"]))
        elif page is None or page.status != 200:
            await asyncio.sleep(2)
    cookie = COOKIE.search(page.headers.get("set-cookie", ""))
    if cookie is None:
        stats.errors.append(f"{path}: no CSRF cookie")
        return
    headers = {"Cookie": f"csrftoken={cookie.group(1)}", "HX-Request": "true", "HX-Current-URL": path}
    body = page.body
    for number, played in enumerate(deals, start=1):
        await asyncio.sleep(max(0.0, played - loop.time()))
        if loop.time() >= deadline:
            return
        client_id, csrf = _form_fields(body, cookie.group(1))
        form = intended[(table["id"], number)] | {"client_id": client_id, "csrfmiddlewaretoken": csrf}
        form |= shown_version(body)
        while True:
            stats.pending.add((which, table["id"], number))
            answer = await timed(stats, "enter a deal", port, "POST", path, pace.timeout, form=form, headers=headers)
            wrong = wrong_answer(answer.body, number) if answer is not None and answer.status == 200 else "?"
            if wrong is None:
                stats.pending.discard((which, table["id"], number))
                stats.lean += lean(answer.body)
                stats.confirmed[which, table["id"]].append(number)
                body = answer.body
                break
            if answer is not None and answer.status == 200:
                # Answered, but for another deal or without confirming it: a bug, reported.
                stats.errors.append(f"{path}: deal {number}: {wrong}")
                stats.pending.discard((which, table["id"], number))
                return
            if answer is not None and answer.status < 500:
                # A refusal is a bug of the office or the generator: report it, stop this phone.
                stats.errors.append(f"{path}: deal {number} answered {answer.status}: {answer.body[:200]!r}")
                stats.pending.discard((which, table["id"], number))
                return
            if loop.time() >= deadline:
                return  # still pending: its answer never came
            stats.resent += 1
            await asyncio.sleep(1.0)


async def spectator(port: int, path: str, stats: HallStats, pace: Pace, start: float, deadline: float) -> None:
    """Reload the public standings every ``pace.poll`` seconds, sending back ETag / Last-Modified."""
    loop = asyncio.get_running_loop()
    validators: dict[str, str] = {}
    due = start
    while True:
        await asyncio.sleep(max(0.0, due - loop.time()))
        if loop.time() >= deadline:
            return
        answer = await timed(stats, "standings", port, "GET", path, pace.timeout, headers=validators)
        if answer is not None:
            if answer.status == 304:
                stats.not_modified += 1
            elif answer.status == 503 and "retry-after" in answer.headers:
                stats.busy += 1
            elif answer.status == 200:
                validators = {}
                if "etag" in answer.headers:
                    validators["If-None-Match"] = answer.headers["etag"]
                if "last-modified" in answer.headers:
                    validators["If-Modified-Since"] = answer.headers["last-modified"]
        due += pace.poll


def schedule(rng: random.Random, start: float, count: int, pace: Pace) -> list[float]:
    """When a table plays its deals: the first within one deal's time of ``start``, then every 60-120 s."""
    moments, at = [], start + rng.uniform(0, pace.deal_max)
    for _ in range(count):
        moments.append(at)
        at += rng.uniform(pace.deal_min, pace.deal_max)
    return moments


def hall_tasks(
    port: int,
    tables: list[dict],
    standings_path: str,
    spectators: int,
    stats: HallStats,
    *,
    pace: Pace,
    seed: int,
    duration: float,
) -> tuple[list, dict[tuple[int, int], dict[str, str]]]:
    """The coroutines of the whole hall (two phones per table, the spectators) and what each deal should hold."""
    loop = asyncio.get_running_loop()
    start = loop.time()
    deadline = start + duration
    rng = random.Random(seed)
    intended: dict[tuple[int, int], dict[str, str]] = {}
    tasks = []
    for table in tables:
        moments = schedule(rng, start, table["deals"], pace)
        # Only the deals that can be played within the run are made up.
        moments = [m for m in moments if m < deadline]
        for number in range(1, len(moments) + 1):
            intended[(table["id"], number)] = deal_fields(rng, number, table["size"])
        lagged = [m + rng.uniform(*pace.control_lag) for m in moments]
        # The phones open their links before the first deal (all within the first deal's time).
        first = moments[0] if moments else start + pace.deal_max
        for which, when in (("sheet", moments), ("control", lagged)):
            opened = start + rng.uniform(0, max(0.0, first - start))
            tasks.append(phone(port, table, which, opened, when, intended, stats, pace, deadline))
    for _ in range(spectators):
        tasks.append(spectator(port, standings_path, stats, pace, start + rng.uniform(0, pace.poll), deadline))
    return tasks, intended
