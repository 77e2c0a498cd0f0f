"""The load test's simulated scorekeepers: one phone per table, entering it deal by deal.

Each does what a phone does through the table link: GET the sheet, read the CSRF token
and the form's ``client_id``, POST every deal as htmx does and read the next form from
the answer (the whole sheet, or only what changed: :func:`wrong_answer` checks that it
adds the deal sent). Some double-submit (the same ``client_id`` twice at once), some give up
waiting for an answer and send again.
"""

from __future__ import annotations

import asyncio
import random
import re
import time
from collections import Counter
from dataclasses import dataclass, field

from office.demo import random_game

from .client import Response, abandon, request
from .fixtures import entry_data, shown_version

CLIENT_ID = re.compile(rb'name="client_id" value="([0-9a-f-]{36})"')
CSRF = re.compile(rb'name="csrfmiddlewaretoken" value="([^"]+)"')
COOKIE = re.compile(r"csrftoken=([^;]+)")
#: The answer with only what changed (tablelink.answers): the deal it follows and the deal it adds.
LEAN = re.compile(rb'<div id="sheet-delta" data-after="(\d+)" data-deal="(\d+)"')


def lean(body: bytes) -> bool:
    """Whether ``body`` is the answer with only what changed (it begins with it)."""
    return LEAN.search(body, 0, 400) is not None


def wrong_answer(body: bytes, number: int) -> str | None:
    """Why the answer ``body`` does not confirm deal ``number``, None when it does.

    The answer is the whole sheet (a resend, the table's first or last deal) or only what
    changed; either carries the next form's client id and CSRF token and says "Deal n
    entered". A lean answer also names the deal it follows and the deal it adds, which
    must be the deal sent: an answer for another deal would put a wrong row on the page.
    """
    if f"Deal {number} entered".encode() not in body:
        return "the answer does not confirm it"
    found = LEAN.search(body)
    if found is not None and (int(found.group(1)), int(found.group(2))) != (number - 1, number):
        return f"the answer adds deal {found.group(2).decode()} after deal {found.group(1).decode()}"
    return None


@dataclass
class Stats:
    latencies: dict[str, list[float]] = field(default_factory=lambda: {"GET": [], "POST": []})
    statuses: Counter = field(default_factory=Counter)
    errors: list[str] = field(default_factory=list)
    double_submits: int = 0
    double_answered: int = 0
    abandoned: int = 0
    resent: int = 0
    acknowledged: set = field(default_factory=set)  # (table id, deal) the server confirmed
    lean: int = 0  # of those, answered with only what changed (:func:`lean`)

    @property
    def all_latencies(self) -> list[float]:
        return self.latencies["GET"] + self.latencies["POST"]


@dataclass
class Plan:
    """What each scorekeeper does: think times and how often to double-submit or give up."""

    think: float = 1.0
    ramp: float = 2.0
    double: float = 0.05
    retry: float = 0.05
    timeout: float = 15.0


async def scorekeeper(port: int, table: dict, plan: Plan, stats: Stats, intended: dict, rng: random.Random) -> None:
    """One phone entering one whole table, deal by deal, through its link."""
    path = table["url"]
    await asyncio.sleep(rng.uniform(0, plan.ramp))
    opened = await _open_sheet(port, path, plan, stats)
    if opened is None:
        return
    headers, body = opened
    for number in range(1, table["deals"] + 1):
        client_id, csrf = CLIENT_ID.search(body), CSRF.search(body)
        if client_id is None or csrf is None:
            stats.errors.append(f"{path}: no form for deal {number}")
            return
        await asyncio.sleep(rng.uniform(plan.think / 2, plan.think * 1.5))
        data = entry_data(random_game(rng, number, table["size"]))
        intended[(table["id"], number)] = {k: v for k, v in data.items() if k != "client_id"}
        form = data | {"client_id": client_id.group(1).decode(), "csrfmiddlewaretoken": csrf.group(1).decode()}
        form |= shown_version(body)
        answer = await _send_deal(port, path, form, headers, plan, stats, rng)
        if answer is None or answer.status != 200:
            detail = answer.body[:300] if answer is not None else b""
            stats.errors.append(f"{path}: deal {number} not entered: {detail!r}")
            return
        wrong = wrong_answer(answer.body, number)
        if wrong is not None:
            stats.errors.append(f"{path}: deal {number}: {wrong}")
        else:
            stats.acknowledged.add((table["id"], number))
            stats.lean += lean(answer.body)
        body = answer.body


async def _open_sheet(port: int, path: str, plan: Plan, stats: Stats) -> tuple[dict[str, str], bytes] | None:
    """The table link's sheet and the headers htmx sends with the CSRF cookie, or None
    (the error counted) when it does not open."""
    page = await timed(stats, "GET", port, path, timeout=plan.timeout)
    if page is None or page.status != 200:
        stats.errors.append(f"{path}: GET answered {page.status if page else 'nothing'}")
        return None
    cookie = COOKIE.search(page.headers.get("set-cookie", ""))
    if cookie is None:
        stats.errors.append(f"{path}: no CSRF cookie")
        return None
    headers = {"Cookie": f"csrftoken={cookie.group(1)}", "HX-Request": "true", "HX-Current-URL": path}
    return headers, page.body


async def _send_deal(
    port: int, path: str, form: dict, headers: dict, plan: Plan, stats: Stats, rng: random.Random
) -> Response | None:
    """POST one deal as a phone does: now and then a double tap, or given up and sent again."""
    roll = rng.random()
    if roll < plan.double:
        return await _double_tap(port, path, form, headers, plan, stats)
    if roll < plan.double + plan.retry:
        # The phone gives up waiting (Wi-Fi), then sends the same submission again.
        stats.abandoned += 1
        await abandon(port, path, form, headers, after=rng.uniform(0.001, 0.03))
        await asyncio.sleep(rng.uniform(0.05, 0.3))
    answer = None
    for attempt in range(3):
        answer = await timed(stats, "POST", port, path, form=form, headers=headers, timeout=plan.timeout)
        if answer is not None and answer.status == 200:
            break
        stats.resent += 1
        await asyncio.sleep(0.5 * (attempt + 1))
    return answer


async def _double_tap(port: int, path: str, form: dict, headers: dict, plan: Plan, stats: Stats) -> Response | None:
    """The same submission twice at once; both must answer with the sheet."""
    stats.double_submits += 1
    answers = await asyncio.gather(
        timed(stats, "POST", port, path, form=form, headers=headers, timeout=plan.timeout),
        timed(stats, "POST", port, path, form=form, headers=headers, timeout=plan.timeout),
    )
    if all(a is not None and a.status == 200 for a in answers):
        stats.double_answered += 1
    return next((a for a in answers if a is not None and a.status == 200), None)


async def timed(stats: Stats, method: str, port: int, path: str, **kwargs) -> Response | None:
    start = time.perf_counter()
    try:
        response = await request(port, method, path, **kwargs)
    except (TimeoutError, OSError) as error:
        stats.statuses["no answer"] += 1
        stats.errors.append(f"{method} {path}: {type(error).__name__} {error}")
        return None
    stats.latencies[method].append(time.perf_counter() - start)
    stats.statuses[response.status] += 1
    return response
