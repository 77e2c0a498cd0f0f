"""The load test behind ``manage.py loadtest``: many scorekeepers at once, then an audit.

The app runs under waitress (or ``--server``) on 127.0.0.1 (:mod:`perf.server`) against a
throwaway database (:func:`perf.scratch.scratch_database`). Simulated
scorekeepers, one per table (:mod:`perf.scorekeepers`), do what a phone does
through the table link: GET the sheet, read the CSRF token and the form's
``client_id``, POST every deal as htmx does and read the next form from the answer.
Some double-submit (the same ``client_id`` twice at once), some give up waiting for an
answer and send again. Afterwards the database is audited: every deal stored exactly
once and as entered, the standings equal to the engine's sheets, no 5xx.

Only loopback traffic, bounded in count (clients x deals) and in time (``limit``).
The HTTP client (:mod:`perf.client`) is a few lines over asyncio streams: no dependency.
"""

from __future__ import annotations

import asyncio
import datetime
import os
import random
import time
from collections import Counter
from dataclasses import dataclass

from django.db import connections

from draw.series import draw_series
from scoring.models import Game
from standings.places import seat_totals_differ, standings
from tournaments.models import Player, Registration, Table, Tournament

from .client import LOOPBACK, request, run_loop
from .fixtures import entry_data
from .oracle import engine_ratings
from .quota.cgroups import CpuQuota
from .scorekeepers import Plan, Stats, scorekeeper
from .scratch import Scratch
from .server import Server, describe
from .timing import Log


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
    scratch: Scratch,
    *,
    clients: int,
    rounds: int,
    workers: int,
    threads: int,
    plan: Plan,
    limit: float,
    seed: int,
    log: Log,
    server_name: str = "waitress",
    cpu_quota: CpuQuota | None = None,
) -> Outcome:
    """Set up a tournament, let one scorekeeper per table enter it against the server, then audit."""
    tournament = setup(clients, rounds, log)
    tables = [
        {"id": t.pk, "url": t.entry_url(), "size": t.size, "deals": tournament.deals_per_table(t.size)}
        for t in Table.objects.filter(series__tournament=tournament).order_by("number")
    ]
    connections.close_all()
    stats = Stats()
    intended: dict[tuple[int, int], dict] = {}
    rng = random.Random(seed)
    server_text = describe(server_name, workers, threads)
    with Server(
        scratch.url, workers, threads, log, cache_dir=scratch.cache_dir, server=server_name, cpu_quota=cpu_quota
    ) as server:
        log(f"  {server_text} on {LOOPBACK}:{server.port}; {clients} scorekeepers start")
        elapsed, client_cpu = _enter_everything(
            server.port, tables, plan, stats, intended, rng, workers * threads, limit
        )
        server_log = server.output()
    audit = _audit(tournament, tables, stats, intended)
    p99 = percentile(stats.all_latencies, 0.99)
    lines = [
        f"{scratch.description.split()[0]}, {server_text}, {clients} scorekeepers, {len(tables)} tables, "
        f"{audit.expected} deals, think time {plan.think:g} s, start spread over {plan.ramp:g} s",
        *_traffic_lines(stats, elapsed, client_cpu),
        *audit.lines(stats),
    ]
    for error in stats.errors[:10]:
        lines.append(f"  {error}")
    if audit.five_xx and server_log.strip():
        lines.append("server log (end):\n" + server_log)
    failed = audit.failures(stats) + ([f"p99 {_ms(p99)} >= 200 ms"] if p99 >= 0.200 else [])
    lines.append("result        " + ("pass" if not failed else "FAIL: " + "; ".join(failed)))
    return Outcome(lines, failed)


def _enter_everything(
    port: int,
    tables: list[dict],
    plan: Plan,
    stats: Stats,
    intended: dict,
    rng: random.Random,
    concurrency: int,
    limit: float,
) -> tuple[float, float]:
    """Warm the server up, then run every table's scorekeeper at once within ``limit``
    seconds: (seconds elapsed, the load generator's CPU seconds)."""

    async def everyone() -> None:
        await asyncio.gather(
            *(scorekeeper(port, table, plan, stats, intended, random.Random(rng.random())) for table in tables)
        )

    async def warm_up() -> None:
        # Each worker loads the app and compiles the templates on its first requests: not measured.
        paths = [tables[i % len(tables)]["url"] for i in range(max(8, 2 * concurrency))]
        await asyncio.gather(*(request(port, "GET", path, timeout=plan.timeout) for path in paths))

    run_loop(warm_up())
    started, cpu_started = time.perf_counter(), time.process_time()
    try:
        run_loop(asyncio.wait_for(everyone(), limit))
    except TimeoutError:
        stats.errors.append(f"the run did not finish within {limit:.0f} s")
    return time.perf_counter() - started, time.process_time() - cpu_started


@dataclass
class _Audit:
    """What the database holds after the run, against what the phones sent and were told."""

    expected: int
    stored: dict
    lost: list
    missing: list
    duplicated: list
    mismatched: list
    engine: dict
    office: dict
    drifted: list
    five_xx: int

    def lines(self, stats: Stats) -> list[str]:
        """The report's lines on the games, the standings and the errors."""
        return [
            f"games         {self.expected} dealt, {len(stats.acknowledged)} confirmed, {len(self.stored)} stored: "
            f"lost {len(self.lost)}, duplicated {len(self.duplicated)}, not as entered {len(self.mismatched)}, "
            f"never confirmed {len(self.missing)}",
            f"standings     {'equal to' if self.engine == self.office else 'DIFFERENT from'} the engine's sheets "
            f"({len(self.office)} players); seat totals {'equal to' if not self.drifted else 'DIFFERENT from'} "
            f"the GROUP BY of the games ({len(self.drifted)} seats differ)",
            f"errors        {len(stats.errors)}; 5xx: {self.five_xx}",
        ]

    def failures(self, stats: Stats) -> list[str]:
        """Why the run failed, save its speed; empty when it passed."""
        failed = []
        if self.lost or self.duplicated or self.mismatched:
            failed.append("games lost, duplicated or not as entered")
        if self.missing:
            failed.append("deals never entered")
        if self.engine != self.office:
            failed.append("standings differ from the engine")
        if self.drifted:
            failed.append("seat totals differ from the games")
        if self.five_xx:
            failed.append("5xx answers")
        if stats.errors:
            failed.append("client errors")
        if stats.double_answered != stats.double_submits:
            failed.append("a double submit was refused")
        return failed


def _audit(tournament: Tournament, tables: list[dict], stats: Stats, intended: dict) -> _Audit:
    """The audit, on the database itself."""
    stored = {(g.table_id, g.number): g for g in Game.objects.filter(table__series__tournament=tournament).order_by()}
    per_deal = Counter(
        (table_id, number)
        for table_id, number in Game.objects.filter(table__series__tournament=tournament).values_list(
            "table_id", "number"
        )
    )
    return _Audit(
        expected=sum(t["deals"] for t in tables),
        stored=stored,
        # Lost: confirmed to the phone but not stored. Missing: never confirmed (the phone gave up).
        lost=[key for key in stats.acknowledged if key not in stored],
        missing=_missing(tables, stored),
        duplicated=[key for key, count in per_deal.items() if count > 1],
        mismatched=_not_as_entered(stored, intended),
        engine=engine_ratings(tournament),
        office={row.item.player_id: row.rating for row in standings(tournament)},
        # The seat totals the triggers kept under concurrent entry, against the GROUP BY of the stored games.
        drifted=seat_totals_differ(Table.objects.filter(series__tournament=tournament)),
        five_xx=_server_errors(stats),
    )


def _missing(tables: list[dict], stored: dict) -> list[tuple[int, int]]:
    """The deals of every table not stored."""
    return [key for key in ((t["id"], n) for t in tables for n in range(1, t["deals"] + 1)) if key not in stored]


def _not_as_entered(stored: dict, intended: dict) -> list[tuple[int, int]]:
    """The stored deals no phone sent, or not as it sent them."""
    return [
        key
        for key, game in stored.items()
        if key not in intended or {k: v for k, v in entry_data(game).items() if k != "client_id"} != intended[key]
    ]


def _server_errors(stats: Stats) -> int:
    """How many requests the server answered with a 5xx."""
    return sum(count for status, count in stats.statuses.items() if isinstance(status, int) and status >= 500)


def _traffic_lines(stats: Stats, elapsed: float, client_cpu: float) -> list[str]:
    """The report's lines on the requests: how many, how fast, what they answered."""
    requests = sum(stats.statuses.values())
    every = stats.all_latencies
    return [
        f"requests      {requests} in {elapsed:.1f} s = {requests / elapsed:.1f}/s "
        f"(GET {len(stats.latencies['GET'])}, POST {len(stats.latencies['POST'])}, "
        f"plus {stats.abandoned} abandoned after a client timeout); the load generator used "
        f"{client_cpu:.0f} s CPU of the {os.cpu_count()} cores' {elapsed * (os.cpu_count() or 1):.0f} s",
        f"latency       p50 {_ms(percentile(every, 0.5))}, p90 {_ms(percentile(every, 0.9))}, "
        f"p99 {_ms(percentile(every, 0.99))}, max {_ms(max(every, default=0))}",
        f"  GET sheet   p50 {_ms(percentile(stats.latencies['GET'], 0.5))}, "
        f"p99 {_ms(percentile(stats.latencies['GET'], 0.99))}",
        f"  POST deal   p50 {_ms(percentile(stats.latencies['POST'], 0.5))}, "
        f"p99 {_ms(percentile(stats.latencies['POST'], 0.99))}; "
        f"{stats.lean} of {len(stats.acknowledged)} deals confirmed with only what changed",
        "statuses      "
        + ", ".join(f"{status}: {count}" for status, count in sorted(stats.statuses.items(), key=str)),
        f"double submits {stats.double_submits} (both answered 200: {stats.double_answered}); "
        f"resent after a client timeout {stats.abandoned}; resent after an error {stats.resent}",
    ]


def _ms(value: float) -> str:
    return f"{value * 1000:.0f} ms"
