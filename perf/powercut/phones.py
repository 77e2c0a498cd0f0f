"""The power-cut run's phones: each enters its table deal by deal through the table link, on loopback.

As a scorekeeper's phone: GET the sheet, read the form (its deal number, client id and
CSRF token), POST a random valid deal as htmx does and read the next form from the
answer. A deal counts as *acknowledged* only when the whole answer came and says
"Deal N entered": that is the promise the office made to the table.
"""

from __future__ import annotations

import asyncio
import random
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from perf.client import request
from perf.scorekeepers import CLIENT_ID, COOKIE, CSRF
from rehearsal.deals import deal_fields

NUMBER = re.compile(rb'name="number" value="(\d+)"')


@dataclass(frozen=True)
class Table:
    """A table the phones enter: its link and its size (the database's id is the office's)."""

    id: int
    path: str
    size: int


@dataclass
class Tally:
    """What the office acknowledged, by (table id, deal number), and what went wrong."""

    acknowledged: set[tuple[int, int]] = field(default_factory=set)
    errors: list[str] = field(default_factory=list)
    finished: set[int] = field(default_factory=set)  # tables whose sheet is full


async def phone(port: int, table: Table, tally: Tally, rng: random.Random, think: float) -> None:
    """Enter ``table`` until its sheet is full, the office stops answering or the task is cancelled."""
    try:
        page = await request(port, "GET", table.path, timeout=30)
    except (TimeoutError, OSError):
        return  # the office is gone (the cut came first)
    cookie = COOKIE.search(page.headers.get("set-cookie", ""))
    if page.status != 200 or cookie is None:
        tally.errors.append(f"table {table.id}: GET answered {page.status}")
        return
    headers = {"Cookie": f"csrftoken={cookie.group(1)}", "HX-Request": "true", "HX-Current-URL": table.path}
    body = page.body
    while True:
        number, client_id, csrf = NUMBER.search(body), CLIENT_ID.search(body), CSRF.search(body)
        if number is None or client_id is None or csrf is None:
            tally.finished.add(table.id)  # no form: the sheet is full
            return
        deal = int(number.group(1))
        await asyncio.sleep(rng.uniform(0, think))
        form = deal_fields(rng, deal, table.size) | {
            "client_id": client_id.group(1).decode(),
            "csrfmiddlewaretoken": csrf.group(1).decode(),
        }
        try:
            answer = await request(port, "POST", table.path, form=form, headers=headers, timeout=30)
        except (TimeoutError, OSError):
            return  # the office is gone (the cut): this deal was never acknowledged
        if answer.status != 200 or f"Deal {deal} entered".encode() not in answer.body:
            tally.errors.append(f"table {table.id}: deal {deal} answered {answer.status} without confirming it")
            return
        tally.acknowledged.add((table.id, deal))
        body = answer.body


async def enter_until(
    port: int, tables: list[Table], tally: Tally, cut: Callable[[], None], *, seconds: float, seed: int, think: float
) -> None:
    """One phone per table; after ``seconds`` ``cut()`` kills the office amid their requests.

    Answers already on their way are read for a second more (the office sent them before
    it died: they are acknowledged); then the phones are put away.
    """
    rng = random.Random(seed)
    tasks = [asyncio.ensure_future(phone(port, t, tally, random.Random(rng.random()), think)) for t in tables]
    await asyncio.wait(tasks, timeout=seconds)
    cut()
    _done, running = await asyncio.wait(tasks, timeout=1.0)
    for task in running:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
