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
    server_text = describe(server_name, workers, threads)
    with Server(scratch.url, workers, threads, log, cache_dir=scratch.cache_dir, server=server_name) as server:
        log(f"  {server_text} on {LOOPBACK}:{server.port}; {clients} scorekeepers start")

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

        run_loop(warm_up())
        started, cpu_started = time.perf_counter(), time.process_time()
        try:
            run_loop(asyncio.wait_for(everyone(), limit))
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
        if key not in intended or {k: v for k, v in entry_data(game).items() if k != "client_id"} != intended[key]
    ]
    engine = engine_ratings(tournament)
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
