"""The load test behind ``manage.py loadtest``: many scorekeepers at once, then an audit.

The app runs under gunicorn on 127.0.0.1 against a throwaway database
(:func:`office.perf.bench.scratch_database`). Simulated scorekeepers, one per table, do what
a phone does through the table link: GET the sheet, read the CSRF token and the form's
``client_id``, POST every deal as htmx does and read the next form from the answer.
Some double-submit (the same ``client_id`` twice at once), some give up waiting for an
answer and send again. Afterwards the database is audited: every deal stored exactly
once and as entered, the standings equal to the engine's sheets, no 5xx.

Only loopback traffic, bounded in count (clients x deals) and in time (``limit``).
The HTTP client is a few lines over asyncio streams: no dependency.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import os
import random
import re
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from django.conf import settings
from django.db import connections

from office.demo import random_game
from scoring.models import Game
from scoring.standings import seat_totals_differ, standings
from tournaments.models import Player, Registration, Table, Tournament
from tournaments.series import draw_series

from . import bench

Log = Callable[[str], None]

CLIENT_ID = re.compile(rb'name="client_id" value="([0-9a-f-]{36})"')
CSRF = re.compile(rb'name="csrfmiddlewaretoken" value="([^"]+)"')
COOKIE = re.compile(r"csrftoken=([^;]+)")


# --- a minimal HTTP/1.1 client over asyncio (one connection per request, as a phone on Wi-Fi) ---


@dataclass
class Response:
    status: int
    headers: dict[str, str]
    body: bytes


async def request(
    port: int,
    method: str,
    path: str,
    *,
    form: dict[str, str] | None = None,
    headers: dict[str, str] | None = None,
    timeout: float = 15.0,
) -> Response:
    """Send one request to 127.0.0.1:``port`` and read the whole answer (Connection: close)."""
    body = urllib.parse.urlencode(form).encode() if form is not None else b""
    lines = [f"{method} {path} HTTP/1.1", f"Host: 127.0.0.1:{port}", "Connection: close"]
    for name, value in (headers or {}).items():
        lines.append(f"{name}: {value}")
    if form is not None:
        lines += ["Content-Type: application/x-www-form-urlencoded", f"Content-Length: {len(body)}"]
    raw = ("\r\n".join(lines) + "\r\n\r\n").encode() + body

    async def exchange() -> bytes:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        try:
            writer.write(raw)
            await writer.drain()
            return await reader.read()
        finally:
            writer.close()

    return Response(*parse(await asyncio.wait_for(exchange(), timeout)))


def parse(data: bytes) -> tuple[int, dict[str, str], bytes]:
    """Status, headers (lower-case names; repeated ones joined) and body of a raw answer."""
    head, _, content = data.partition(b"\r\n\r\n")
    status_line, *header_lines = head.decode("latin-1").split("\r\n")
    parsed: dict[str, str] = {}
    for line in header_lines:
        name, _, value = line.partition(":")
        key = name.strip().lower()
        parsed[key] = f"{parsed[key]}, {value.strip()}" if key in parsed else value.strip()
    return int(status_line.split()[1]), parsed, content


async def abandon(port: int, path: str, form: dict[str, str], headers: dict[str, str], after: float) -> None:
    """Send a POST and stop waiting after ``after`` seconds: the phone's timeout, the server goes on."""
    with contextlib.suppress(TimeoutError, OSError):
        await request(port, "POST", path, form=form, headers=headers, timeout=after)


# --- the scorekeepers ----------------------------------------------------------------------------


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
    page = await timed(stats, "GET", port, path, timeout=plan.timeout)
    if page is None or page.status != 200:
        stats.errors.append(f"{path}: GET answered {page.status if page else 'nothing'}")
        return
    cookie = COOKIE.search(page.headers.get("set-cookie", ""))
    if cookie is None:
        stats.errors.append(f"{path}: no CSRF cookie")
        return
    headers = {"Cookie": f"csrftoken={cookie.group(1)}", "HX-Request": "true", "HX-Current-URL": path}
    body = page.body
    for number in range(1, table["deals"] + 1):
        client_id, csrf = CLIENT_ID.search(body), CSRF.search(body)
        if client_id is None or csrf is None:
            stats.errors.append(f"{path}: no form for deal {number}")
            return
        await asyncio.sleep(rng.uniform(plan.think / 2, plan.think * 1.5))
        data = bench.entry_data(random_game(rng, number, table["size"]))
        intended[(table["id"], number)] = {k: v for k, v in data.items() if k != "client_id"}
        form = data | {"client_id": client_id.group(1).decode(), "csrfmiddlewaretoken": csrf.group(1).decode()}
        roll = rng.random()
        if roll < plan.double:
            # A double tap: the same submission twice at once; both must answer with the sheet.
            stats.double_submits += 1
            answers = await asyncio.gather(
                timed(stats, "POST", port, path, form=form, headers=headers, timeout=plan.timeout),
                timed(stats, "POST", port, path, form=form, headers=headers, timeout=plan.timeout),
            )
            if all(a is not None and a.status == 200 for a in answers):
                stats.double_answered += 1
            answer = next((a for a in answers if a is not None and a.status == 200), None)
        else:
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
        if answer is None or answer.status != 200:
            detail = answer.body[:300] if answer is not None else b""
            stats.errors.append(f"{path}: deal {number} not entered: {detail!r}")
            return
        if f"Deal {number} entered".encode() not in answer.body:
            stats.errors.append(f"{path}: deal {number}: the answer does not confirm it")
        else:
            stats.acknowledged.add((table["id"], number))
        body = answer.body


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


# --- the server ------------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Server:
    """gunicorn serving the office on 127.0.0.1 only, against the scratch database."""

    def __init__(self, database_url: str, workers: int, threads: int, log: Log) -> None:
        self.port = free_port()
        self.log = log
        self.logfile = tempfile.NamedTemporaryFile(prefix="skat-loadtest-", suffix=".log", delete=False)  # noqa: SIM115
        self.env = os.environ | {
            "DATABASE_URL": database_url,
            "DEBUG": "0",
            "SECURE": "0",
            "ALLOWED_HOSTS": "127.0.0.1",
            "SECRET_KEY": "loadtest-" + secrets.token_urlsafe(32),
            "DJANGO_SETTINGS_MODULE": "config.settings",
        }
        self.command = [
            sys.executable,
            "-m",
            "gunicorn",
            "config.wsgi:application",
            "--bind",
            f"127.0.0.1:{self.port}",
            "--workers",
            str(workers),
            "--threads",
            str(threads),
            "--worker-class",
            "gthread" if threads > 1 else "sync",
            "--backlog",
            "2048",
            "--timeout",
            "60",
            "--graceful-timeout",
            "5",
            "--log-level",
            "warning",
        ]
        self.process: subprocess.Popen | None = None

    def __enter__(self) -> Server:
        # DEBUG=0 serves hashed static names: collect them as a deployment does (staticfiles/).
        subprocess.run(
            [sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"],
            cwd=settings.BASE_DIR,
            env=self.env,
            check=True,
        )
        self.process = subprocess.Popen(
            self.command, cwd=settings.BASE_DIR, env=self.env, stdout=self.logfile, stderr=subprocess.STDOUT
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"gunicorn stopped: {self.output()}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    return self
            except OSError:
                time.sleep(0.2)
        self.__exit__()
        raise RuntimeError("gunicorn did not start within 30 s")

    def output(self) -> str:
        return Path(self.logfile.name).read_text(errors="replace")[-3000:]

    def __exit__(self, *_exc) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.logfile.close()
        Path(self.logfile.name).unlink(missing_ok=True)


# --- the run and the audit ---------------------------------------------------------------------------


@dataclass
class Outcome:
    lines: list[str]
    failed: list[str]


def setup(clients: int, rounds: int, log: Log) -> Tournament:
    """A tournament with one table per client: tables of four and, from three clients on, three of three."""
    players = 4 * clients - 3 if clients >= 3 else 4 * clients
    tournament = Tournament.objects.create(
        name=f"Load test {clients}", date=datetime.date(2026, 11, 23), rounds_per_series=rounds, series_count=1
    )
    people = Player.objects.bulk_create([Player(name=f"Scorer {i:04d}") for i in range(players)])
    Registration.objects.bulk_create([Registration(tournament=tournament, player=p) for p in people])
    draw_series(tournament)
    log(f"  {players} players at {tournament.series.get().tables.count()} tables, {rounds} rounds")
    return tournament


def percentile(values: list[float], share: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def run(
    scratch: bench.Scratch,
    *,
    clients: int,
    rounds: int,
    workers: int,
    threads: int,
    plan: Plan,
    limit: float,
    seed: int,
    log: Log,
) -> Outcome:
    tournament = setup(clients, rounds, log)
    tables = [
        {"id": t.pk, "url": t.entry_url(), "size": t.size, "deals": tournament.deals_per_table(t.size)}
        for t in Table.objects.filter(series__tournament=tournament).order_by("number")
    ]
    connections.close_all()
    stats = Stats()
    intended: dict[tuple[int, int], dict] = {}
    rng = random.Random(seed)
    server_text = f"{workers} gunicorn worker(s) x {threads} thread(s)"
    with Server(scratch.url, workers, threads, log) as server:
        log(f"  {server_text} on 127.0.0.1:{server.port}; {clients} scorekeepers start")

        async def everyone() -> None:
            await asyncio.gather(
                *(
                    scorekeeper(server.port, table, plan, stats, intended, random.Random(rng.random()))
                    for table in tables
                )
            )

        async def warm_up() -> None:
            # Each worker loads the app and compiles the templates on its first requests: not measured.
            paths = [tables[i % len(tables)]["url"] for i in range(max(8, 2 * workers * threads))]
            await asyncio.gather(*(request(server.port, "GET", path, timeout=plan.timeout) for path in paths))

        asyncio.run(warm_up())
        started, cpu_started = time.perf_counter(), time.process_time()
        try:
            asyncio.run(asyncio.wait_for(everyone(), limit))
        except TimeoutError:
            stats.errors.append(f"the run did not finish within {limit:.0f} s")
        elapsed = time.perf_counter() - started
        client_cpu = time.process_time() - cpu_started
        server_log = server.output()

    # The audit, on the database itself.
    expected = sum(t["deals"] for t in tables)
    stored = {(g.table_id, g.number): g for g in Game.objects.filter(table__series__tournament=tournament).order_by()}
    per_deal = Counter(
        (table_id, number)
        for table_id, number in Game.objects.filter(table__series__tournament=tournament).values_list(
            "table_id", "number"
        )
    )
    # Lost: confirmed to the phone but not stored. Missing: never confirmed (the phone gave up).
    lost = [key for key in stats.acknowledged if key not in stored]
    missing = [key for key in ((t["id"], n) for t in tables for n in range(1, t["deals"] + 1)) if key not in stored]
    duplicated = [key for key, count in per_deal.items() if count > 1]
    mismatched = [
        key
        for key, game in stored.items()
        if key not in intended
        or {k: v for k, v in bench.entry_data(game).items() if k != "client_id"} != intended[key]
    ]
    engine = bench.engine_ratings(tournament)
    office = {row.item.player_id: row.rating for row in standings(tournament)}
    # The seat totals the triggers kept under concurrent entry, against the GROUP BY of the stored games.
    drifted = seat_totals_differ(Table.objects.filter(series__tournament=tournament))
    five_xx = sum(count for status, count in stats.statuses.items() if isinstance(status, int) and status >= 500)
    requests = sum(stats.statuses.values())
    every = stats.all_latencies
    p99 = percentile(every, 0.99)

    def ms(value: float) -> str:
        return f"{value * 1000:.0f} ms"

    lines = [
        f"{scratch.description.split()[0]}, {server_text}, {clients} scorekeepers, {len(tables)} tables, "
        f"{expected} deals, think time {plan.think:g} s, start spread over {plan.ramp:g} s",
        f"requests      {requests} in {elapsed:.1f} s = {requests / elapsed:.1f}/s "
        f"(GET {len(stats.latencies['GET'])}, POST {len(stats.latencies['POST'])}, "
        f"plus {stats.abandoned} abandoned after a client timeout); the load generator used "
        f"{client_cpu:.0f} s CPU of the {os.cpu_count()} cores' {elapsed * (os.cpu_count() or 1):.0f} s",
        f"latency       p50 {ms(percentile(every, 0.5))}, p90 {ms(percentile(every, 0.9))}, "
        f"p99 {ms(p99)}, max {ms(max(every, default=0))}",
        f"  GET sheet   p50 {ms(percentile(stats.latencies['GET'], 0.5))}, "
        f"p99 {ms(percentile(stats.latencies['GET'], 0.99))}",
        f"  POST deal   p50 {ms(percentile(stats.latencies['POST'], 0.5))}, "
        f"p99 {ms(percentile(stats.latencies['POST'], 0.99))}",
        "statuses      "
        + ", ".join(f"{status}: {count}" for status, count in sorted(stats.statuses.items(), key=str)),
        f"double submits {stats.double_submits} (both answered 200: {stats.double_answered}); "
        f"resent after a client timeout {stats.abandoned}; resent after an error {stats.resent}",
        f"games         {expected} dealt, {len(stats.acknowledged)} confirmed, {len(stored)} stored: "
        f"lost {len(lost)}, duplicated {len(duplicated)}, not as entered {len(mismatched)}, "
        f"never confirmed {len(missing)}",
        f"standings     {'equal to' if engine == office else 'DIFFERENT from'} the engine's sheets "
        f"({len(office)} players); seat totals {'equal to' if not drifted else 'DIFFERENT from'} "
        f"the GROUP BY of the games ({len(drifted)} seats differ)",
        f"errors        {len(stats.errors)}; 5xx: {five_xx}",
    ]
    for error in stats.errors[:10]:
        lines.append(f"  {error}")
    if five_xx and server_log.strip():
        lines.append("server log (end):\n" + server_log)
    failed = []
    if lost or duplicated or mismatched:
        failed.append("games lost, duplicated or not as entered")
    if missing:
        failed.append("deals never entered")
    if engine != office:
        failed.append("standings differ from the engine")
    if drifted:
        failed.append("seat totals differ from the games")
    if five_xx:
        failed.append("5xx answers")
    if stats.errors:
        failed.append("client errors")
    if stats.double_answered != stats.double_submits:
        failed.append("a double submit was refused")
    if p99 >= 0.200:
        failed.append(f"p99 {ms(p99)} >= 200 ms")
    lines.append("result        " + ("pass" if not failed else "FAIL: " + "; ".join(failed)))
    return Outcome(lines, failed)
