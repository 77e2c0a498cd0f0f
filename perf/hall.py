"""The load test's hall profile: a whole evening's hall against the production server, then an audit.

750 tables (3,000 players) play their second series, a deal every 60-120 s: two phones
per table enter each deal, the sheet's through the table link and the second list's
through the control link (about 17 entries a second), while 3,000 spectators reload
the public standings every 30 s (about 100 requests a second), sending back the ETag
like a browser. The office runs as ``skat-office serve`` starts it (waitress in one
process, DEBUG off; ``--server`` another to compare) on the loopback address 127.0.0.2,
which stands for the hall's other devices, against a throwaway database; the devices (:mod:`perf.hall_clients`)
are coroutines of one asyncio loop, not a process each. The run is bounded (``duration``).

Afterwards the database is audited: each table's sheet and second list hold exactly the
deals the office confirmed to their phones, numbered 1, 2, 3 ... without a gap, each
once and as entered (a deal whose answer had not come when the run stopped may be
stored or not: it is counted, not failed).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import time
from collections import Counter, defaultdict
from dataclasses import dataclass

from django.db import connections
from django.urls import reverse

from scoring.models import ControlEntry, Game
from tournaments.models import Series, Table, Tournament

from .client import HALL, request, run_loop
from .fixtures import build, entry_data
from .hall_clients import HallStats, Pace, hall_tasks
from .loadtest import Outcome, percentile
from .quota.cgroups import CpuQuota
from .scratch import Scratch
from .server import Server, describe
from .timing import Log

#: The targets: p99 of entering a deal and of the public standings.
ENTRY_P99 = 0.200
STANDINGS_P99 = 0.300


def setup(tables: int, seed: int, log: Log) -> Tournament:
    """A tournament of ``4 x tables`` players: series 1 played and finished, series 2 drawn and empty, published."""
    tournament = build(4 * tables, 2, seed=seed, log=log, open_last=True)
    Tournament.objects.filter(pk=tournament.pk).update(standings_public=True)
    return tournament


@dataclass
class Audit:
    confirmed: int = 0
    stored: int = 0
    lost: int = 0  # confirmed to the phone, not stored
    duplicated: int = 0  # a deal number stored twice
    out_of_order: int = 0  # a table whose stored numbers are not 1..n
    not_as_entered: int = 0
    unconfirmed_stored: int = 0  # stored, its answer not confirmed: only allowed for a deal pending at the end
    pending: int = 0

    @property
    def ok(self) -> bool:
        return not (
            self.lost or self.duplicated or self.out_of_order or self.not_as_entered or self.unconfirmed_stored
        )


def audit(which: str, model, series: Series, stats: HallStats, intended: dict) -> Audit:
    """One list of every table against what its phone was told: stored = confirmed, in order, as entered."""
    result = Audit()
    stored: dict[int, list] = defaultdict(list)
    for entry in model.objects.filter(table__series=series).order_by("table_id", "number"):
        stored[entry.table_id].append(entry)
    tables = set(stored) | {table for (kind, table) in stats.confirmed if kind == which}
    for table in tables:
        entries = stored.get(table, [])
        numbers = [e.number for e in entries]
        confirmed = stats.confirmed.get((which, table), [])
        result.confirmed += len(confirmed)
        result.stored += len(entries)
        counts = Counter(numbers)
        result.duplicated += sum(count - 1 for count in counts.values())
        if sorted(set(numbers)) != list(range(1, len(counts) + 1)) or confirmed != sorted(confirmed):
            result.out_of_order += 1
        result.lost += len(set(confirmed) - set(numbers))
        for number in set(numbers) - set(confirmed):
            if (which, table, number) not in stats.pending:
                result.unconfirmed_stored += 1
        for entry in entries:
            sent = intended.get((table, entry.number))
            if sent is None or {k: v for k, v in entry_data(entry).items() if k != "client_id"} != sent:
                result.not_as_entered += 1
    result.pending = sum(1 for kind, _t, _n in stats.pending if kind == which)
    return result


def run(
    scratch: Scratch,
    *,
    tables: int,
    spectators: int,
    duration: float,
    workers: int,
    threads: int,
    pace: Pace,
    seed: int,
    log: Log,
    server_name: str = "waitress",
    cpu_quota: CpuQuota | None = None,
) -> Outcome:
    tournament = setup(tables, seed, log)
    series = tournament.series.order_by("-number").first()
    links = [
        {
            "id": t.pk,
            "url": t.entry_url(),
            "control_url": t.control_url(),
            "size": t.size,
            "deals": tournament.deals_per_table(t.size),
        }
        for t in Table.objects.filter(series=series).order_by("number")
    ]
    standings_path = reverse("public:standings", args=[tournament.pk])
    connections.close_all()
    stats = HallStats()
    intended: dict = {}
    server_text = describe(server_name, workers, threads)
    with Server(
        scratch.url,
        workers,
        threads,
        log,
        host=HALL,
        cache_dir=scratch.cache_dir,
        server=server_name,
        cpu_quota=cpu_quota,
    ) as server:
        log(
            f"  {server_text} on {HALL}:{server.port}; {len(links)} tables (two phones each) and "
            f"{spectators} spectators for {duration:.0f} s"
        )

        async def warm_up() -> None:
            # Each worker loads the app and compiles the templates on its first requests: not measured.
            paths = [links[i % len(links)]["url"] for i in range(2 * workers * threads)] + [standings_path] * 2
            await asyncio.gather(*(hall_request(server.port, path) for path in paths))

        async def hall() -> None:
            nonlocal intended
            tasks, intended = hall_tasks(
                server.port, links, standings_path, spectators, stats, pace=pace, seed=seed, duration=duration
            )
            await asyncio.gather(*tasks)

        run_loop(warm_up())
        started, cpu_started = time.perf_counter(), time.process_time()
        run_loop(hall())
        elapsed = time.perf_counter() - started
        client_cpu = time.process_time() - cpu_started
        server_log = server.output()

    sheets = audit("sheet", Game, series, stats, intended)
    control = audit("control", ControlEntry, series, stats, intended)
    return report(
        scratch,
        server_text,
        links,
        spectators,
        stats,
        sheets,
        control,
        elapsed=elapsed,
        client_cpu=client_cpu,
        server_log=server_log,
        pace=pace,
    )


async def hall_request(port: int, path: str) -> None:
    """A warm-up request: its answer (or none) does not count."""
    with contextlib.suppress(TimeoutError, OSError):
        await request(port, "GET", path, host=HALL, timeout=120)


def ms(value: float) -> str:
    return f"{value * 1000:.0f} ms"


def report(
    scratch: Scratch,
    server_text: str,
    links: list[dict],
    spectators: int,
    stats: HallStats,
    sheets: Audit,
    control: Audit,
    *,
    elapsed: float,
    client_cpu: float,
    server_log: str,
    pace: Pace,
) -> Outcome:
    entry, standings = stats.latencies["enter a deal"], stats.latencies["standings"]
    opened = stats.latencies["open link"]
    # A spectator told "busy, again in N s" is the admission's answer (config.admission), not a failure.
    # And so is a phone's link told the same after waiting its turn (office.dispatch.ShedStale).
    five_xx = sum(count for status, count in stats.statuses.items() if status >= 500) - stats.busy - stats.shed
    requests = stats.requests()
    entries = sheets.confirmed + control.confirmed

    def spread(values: list[float]) -> str:
        if not values:
            return "- (none sent)"
        return (
            " / ".join(ms(percentile(values, share)) for share in (0.5, 0.95, 0.99))
            + f" (max {ms(max(values, default=0))})"
        )

    def audit_line(name: str, a: Audit) -> str:
        return (
            f"{name:<14}{a.confirmed} confirmed, {a.stored} stored: lost {a.lost}, duplicated {a.duplicated}, "
            f"tables out of order {a.out_of_order}, not as entered {a.not_as_entered}, stored unconfirmed "
            f"{a.unconfirmed_stored}; unanswered when the run stopped {a.pending}"
        )

    cores = os.cpu_count() or 1
    lines = [
        f"{scratch.description.split()[0]}, hall profile, {server_text} on {HALL}, {len(links)} tables x 2 lists, "
        f"{spectators} spectators, {elapsed:.0f} s; a deal every {pace.deal_min:g}-{pace.deal_max:g} s per table, "
        f"standings every {pace.poll:g} s per spectator",
        f"requests       {requests + sum(stats.timeouts.values())} sent, {requests} answered in {elapsed:.1f} s "
        f"= {requests / elapsed:.1f}/s; "
        f"deals entered {entries} = {entries / elapsed:.1f}/s (both lists); standings {len(standings)} "
        f"= {len(standings) / elapsed:.1f}/s, {stats.not_modified} of them 304 Not Modified, "
        f"{stats.busy} busy (503, again in N s); link openings told busy after 3 s in the queue {stats.shed}",
        f"entry          p50 / p95 / p99 {spread(entry)}    target p99 < {ms(ENTRY_P99)}",
        f"standings      p50 / p95 / p99 {spread(standings)}    target p99 < {ms(STANDINGS_P99)}",
        f"open a link    p50 / p95 / p99 {spread(opened)}",
        f"timeouts       {dict(stats.timeouts) or 0} (a timeout counts as {pace.timeout:g} s above); "
        f"deals sent again {stats.resent}",
        "statuses       " + ", ".join(f"{status}: {count}" for status, count in sorted(stats.statuses.items())),
        f"5xx            {five_xx}    target 0",
        audit_line("sheet", sheets),
        audit_line("second list", control),
        f"load generator {client_cpu:.0f} s CPU of the {cores} cores' {elapsed * cores:.0f} s",
        f"errors         {len(stats.errors)}",
    ]
    lines += [f"  {error}" for error in stats.errors[:10]]
    if five_xx and server_log.strip():
        lines.append("server log (end):\n" + server_log)
    failed = []
    if not sheets.ok or not control.ok:
        failed.append("deals lost, duplicated, out of order or not as entered")
    if five_xx:
        failed.append(f"{five_xx} 5xx answers")
    if stats.errors:
        failed.append("refused or failed requests")
    if not entry or percentile(entry, 0.99) >= ENTRY_P99:
        failed.append(f"entry p99 {ms(percentile(entry, 0.99))} >= {ms(ENTRY_P99)}")
    if spectators and (not standings or percentile(standings, 0.99) >= STANDINGS_P99):
        failed.append(f"standings p99 {ms(percentile(standings, 0.99))} >= {ms(STANDINGS_P99)}")
    lines.append("result         " + ("pass" if not failed else "FAIL: " + "; ".join(failed)))
    return Outcome(lines, failed)
