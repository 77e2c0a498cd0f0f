"""The load test's seats profile: a hall looking up its seats right after a draw.

3,000 players (series 1 played and finished, series 2 just drawn, the standings
published) all want their seat within a minute of the draw: about 50 requests a second
for a minute. Each player asks once, at a moment spread evenly over ``duration``
(open loop: the next request is sent on time whether or not the last was answered, as
phones do). Most scan the QR code of their start card (GET of their own page,
``/me/<token>/``); a share (``lookup_share``) types start number and surname instead:
the lookup form and its POST (CSRF token and cookie like a browser), which answers with
his table and seat. Target: p99 < 200 ms for the page and for the lookup, no 5xx, no failure.

The office runs as ``skat-office serve`` starts it (waitress, DEBUG off) on 127.0.0.2
against a throwaway database, as the hall profile does (:mod:`perf.hall`).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import re
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field

from django.db import connections
from django.test import override_settings
from django.urls import reverse

from tournaments.models import Registration, Series, Tournament
from tournaments.player_links import player_path

from .client import HALL, request, run_loop
from .fixtures import build
from .loadtest import Outcome, percentile
from .quota.cgroups import CpuQuota
from .scratch import Scratch
from .server import Server, describe
from .timing import Log

#: The target: the lookup answers p99 < 200 ms.
SEAT_P99 = 0.200
CSRF = re.compile(rb'name="csrfmiddlewaretoken" value="([^"]+)"')
COOKIE = re.compile(r"csrftoken=([^;]+)")


@dataclass(frozen=True, slots=True)
class Seeker:
    """One player: his own page's path, his start number and surname (for the lookup)."""

    path: str
    start_number: int
    surname: str


@dataclass
class SeatStats:
    latencies: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    statuses: Counter = field(default_factory=Counter)
    errors: list[str] = field(default_factory=list)
    late: float = 0.0  # the most a request started after its moment (the load generator's lag)


def setup(players: int, seed: int, log: Log, secret_key: str) -> tuple[Tournament, list[Seeker]]:
    """Series 1 played and finished, series 2 drawn and not started, published; start numbers 1..n.
    The seekers' links are made with the server's SECRET_KEY (derived, as the start cards print them)."""
    tournament = build(players, 2, seed=seed, log=log, open_last=True)
    Tournament.objects.filter(pk=tournament.pk).update(standings_public=True)
    Series.objects.filter(tournament=tournament, number=2).update(status=Series.Status.DRAWN)
    tournament.refresh_from_db()
    registrations = list(Registration.objects.filter(tournament=tournament).select_related("player").order_by("pk"))
    for number, registration in enumerate(registrations, start=1):
        registration.start_number = number
    Registration.objects.bulk_update(registrations, ["start_number"], batch_size=1000)
    playing = [r for r in registrations if r.withdrawn_after_series is None]  # build() withdraws one after series 1
    with override_settings(SECRET_KEY=secret_key):
        seekers = [Seeker(player_path(r), r.start_number, r.player.name.split()[-1]) for r in playing]
    return tournament, seekers


async def timed(port: int, kind: str, stats: SeatStats, method: str, path: str, **kwargs):
    started = time.perf_counter()
    try:
        response = await request(port, method, path, host=HALL, timeout=30, **kwargs)
    except (TimeoutError, OSError) as error:
        stats.errors.append(f"{kind} {path[:24]}…: {type(error).__name__}")
        stats.statuses["no answer"] += 1
        return None
    stats.latencies[kind].append(time.perf_counter() - started)
    stats.statuses[response.status] += 1
    return response


async def scan(port: int, seeker: Seeker, stats: SeatStats) -> None:
    """The QR code on the start card: his own page."""
    response = await timed(port, "own page", stats, "GET", seeker.path)
    if response is not None and (response.status != 200 or b"Table " not in response.body):
        stats.errors.append(f"own page answered {response.status} without a seat")


async def look_up(port: int, lookup_path: str, seeker: Seeker, stats: SeatStats) -> None:
    """Start number and surname typed into the lookup: the form and its POST, which shows his seat."""
    form = await timed(port, "lookup form", stats, "GET", lookup_path)
    if form is None:
        return
    token = CSRF.search(form.body)
    cookie = COOKIE.search(form.headers.get("set-cookie", ""))
    if form.status != 200 or not token or not cookie:
        stats.errors.append(f"lookup form answered {form.status} without a CSRF token")
        return
    fields = {
        "csrfmiddlewaretoken": token.group(1).decode(),
        "start_number": str(seeker.start_number),
        "surname": seeker.surname,
    }
    headers = {"Cookie": f"csrftoken={cookie.group(1)}", "Referer": f"http://{HALL}:{port}{lookup_path}"}
    answer = await timed(port, "lookup", stats, "POST", lookup_path, form=fields, headers=headers)
    if answer is None:
        return
    # The lookup shows his table and seat (start number and surname are public: it never
    # leads to his own page, which only the start card's QR code opens).
    if answer.status != 200 or b"Table " not in answer.body:
        stats.errors.append(f"lookup answered {answer.status} without his seat")


async def burst(
    port: int,
    lookup_path: str,
    seekers: list[Seeker],
    stats: SeatStats,
    *,
    rate: float,
    duration: float,
    share: float,
    seed: int,
) -> None:
    """``rate`` x ``duration`` requests, each at its moment, each player in turn (again from the first)."""
    rng = random.Random(seed)
    total = max(1, round(rate * duration))
    order = list(seekers)
    rng.shuffle(order)
    started = time.perf_counter()
    tasks = []
    for i in range(total):
        moment = started + i / rate
        delay = moment - time.perf_counter()
        if delay > 0:
            await asyncio.sleep(delay)
        stats.late = max(stats.late, time.perf_counter() - moment)
        seeker = order[i % len(order)]
        action = look_up(port, lookup_path, seeker, stats) if rng.random() < share else scan(port, seeker, stats)
        tasks.append(asyncio.ensure_future(action))
    await asyncio.gather(*tasks)


def run(
    scratch: Scratch,
    *,
    players: int,
    rate: float,
    duration: float,
    lookup_share: float,
    workers: int,
    threads: int,
    seed: int,
    log: Log,
    server_name: str = "waitress",
    cpu_quota: CpuQuota | None = None,
) -> Outcome:
    stats = SeatStats()
    server_text = describe(server_name, workers, threads)
    server = Server(
        scratch.url,
        workers,
        threads,
        log,
        host=HALL,
        cache_dir=scratch.cache_dir,
        server=server_name,
        cpu_quota=cpu_quota,
    )
    tournament, seekers = setup(players, seed, log, server.env["SECRET_KEY"])
    lookup_path = reverse("player:lookup", args=[tournament.pk])
    connections.close_all()
    with server:
        log(
            f"  {server_text} on {HALL}:{server.port}; {players} players look up their seats, "
            f"{rate:g}/s for {duration:g} s ({lookup_share:.0%} by start number and surname)"
        )

        async def warm_up() -> None:
            # Each worker loads the app and compiles the templates on its first requests: not measured.
            paths = [seekers[i % len(seekers)].path for i in range(2 * workers * threads)] + [lookup_path] * 2
            for path in paths:
                with contextlib.suppress(TimeoutError, OSError):
                    await request(server.port, "GET", path, host=HALL, timeout=120)

        run_loop(warm_up())
        started, cpu_started = time.perf_counter(), time.process_time()
        run_loop(
            burst(
                server.port, lookup_path, seekers, stats, rate=rate, duration=duration, share=lookup_share, seed=seed
            )
        )
        elapsed = time.perf_counter() - started
        client_cpu = time.process_time() - cpu_started
        server_log = server.output()
    return report(scratch, server_text, players, stats, elapsed, client_cpu, server_log, rate=rate)


def ms(value: float) -> str:
    return f"{value * 1000:.0f} ms"


def report(
    scratch: Scratch,
    server_text: str,
    players: int,
    stats: SeatStats,
    elapsed: float,
    client_cpu: float,
    server_log: str,
    *,
    rate: float,
) -> Outcome:
    def spread(values: list[float]) -> str:
        if not values:
            return "- (none sent)"
        shares = " / ".join(ms(percentile(values, share)) for share in (0.5, 0.95, 0.99))
        return f"{shares} (max {ms(max(values))}, {len(values)} requests)"

    page, lookup = stats.latencies["own page"], stats.latencies["lookup"]
    requests = sum(len(values) for values in stats.latencies.values())
    five_xx = sum(count for status, count in stats.statuses.items() if isinstance(status, int) and status >= 500)
    cores = os.cpu_count() or 1
    lines = [
        f"{scratch.description.split()[0]}, seats profile, {server_text} on {HALL}, {players} players, "
        f"{rate:g} lookups/s planned",
        f"requests       {requests} answered in {elapsed:.1f} s = {requests / elapsed:.1f}/s; "
        f"the load generator started one at most {ms(stats.late)} late",
        f"own page       p50 / p95 / p99 {spread(page)}    target p99 < {ms(SEAT_P99)}",
        f"lookup (POST)  p50 / p95 / p99 {spread(lookup)}    target p99 < {ms(SEAT_P99)}",
        f"lookup form    p50 / p95 / p99 {spread(stats.latencies['lookup form'])}",
        "statuses       "
        + ", ".join(f"{status}: {count}" for status, count in sorted(stats.statuses.items(), key=str)),
        f"5xx            {five_xx}    target 0",
        f"load generator {client_cpu:.0f} s CPU of the {cores} cores' {elapsed * cores:.0f} s",
        f"errors         {len(stats.errors)}",
    ]
    lines += [f"  {error}" for error in stats.errors[:10]]
    if five_xx and server_log.strip():
        lines.append("server log (end):\n" + server_log)
    failed = []
    if five_xx:
        failed.append(f"{five_xx} 5xx answers")
    if stats.errors:
        failed.append("refused or failed requests")
    if not page or percentile(page, 0.99) >= SEAT_P99:
        failed.append(f"own page p99 {ms(percentile(page, 0.99))} >= {ms(SEAT_P99)}")
    if lookup and percentile(lookup, 0.99) >= SEAT_P99:
        failed.append(f"lookup p99 {ms(percentile(lookup, 0.99))} >= {ms(SEAT_P99)}")
    lines.append("result         " + ("pass" if not failed else "FAIL: " + "; ".join(failed)))
    return Outcome(lines, failed)
