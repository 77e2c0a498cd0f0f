"""``loadtest --profile publish``: the halls of a national league day publish their match days.

A national league (:func:`perf.national.build_national`) is built in the scratch
database with its last league day's first ``halls`` match days played in their halls:
each written as its tournament file and set back to unplayed on the server. The office
is served (:mod:`perf.server`) and the halls send their files through the real
publication API (``POST /league/api/publish/?key=``, ``Authorization: Token``), one
every ``every`` seconds (the DSkV's 250 halls within an hour: one each 15 s). Then the
database is audited: every match day stored once, from its own host, with the deals
its file holds; no 5xx.
"""

from __future__ import annotations

import asyncio
import json
import shutil
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from django.db import connections
from django.urls import reverse

from leagues.models import MatchDay, Publication
from scoring.models import Game

from . import national, national_pages
from .client import LOOPBACK, request, run_loop
from .loadtest import Outcome, percentile
from .quota.cgroups import CpuQuota
from .scratch import Scratch
from .server import Server, describe
from .timing import Log

#: The target: a publication is stored within 5 s (p99).
P99_TARGET = 5.0


@dataclass
class Sent:
    latencies: list[float] = field(default_factory=list)
    statuses: dict[object, int] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)

    def count(self, status: object) -> None:
        self.statuses[status] = self.statuses.get(status, 0) + 1


async def publish(port: int, path: str, hall: national.HallFile, seed: int, timeout: float, sent: Sent) -> None:
    """One hall sends its file once, as ``skat-office publish`` does, and waits for the answer."""
    headers = {"Authorization": f"Token {national.made_up_host_token(hall.host, seed)}"}
    content = hall.path.read_bytes()
    started = time.perf_counter()
    try:
        answer = await request(
            port, "POST", f"{path}?key={hall.key}", headers=headers, content=content, timeout=timeout
        )
    except (TimeoutError, OSError) as error:
        sent.count(type(error).__name__)
        sent.errors.append(f"hall {hall.host + 1}: {type(error).__name__} after {time.perf_counter() - started:.1f} s")
        return
    sent.latencies.append(time.perf_counter() - started)
    sent.count(answer.status)
    if answer.status != 201:
        sent.errors.append(f"hall {hall.host + 1}: {answer.status} {answer.body[:300]!r}")
    elif not _says_stored(answer.body):
        sent.errors.append(f"hall {hall.host + 1}: answered 201 but not stored")


def _says_stored(body: bytes) -> bool:
    """The server's answer says ``"stored": true`` (JSON's true: not 1, not "yes")."""
    try:
        answer = json.loads(body)
    except ValueError:
        return False
    return isinstance(answer, dict) and answer.get("stored") is True


def run(
    scratch: Scratch,
    *,
    teams: int,
    halls: int,
    every: float,
    league_days: int,
    workers: int,
    threads: int,
    timeout: float,
    seed: int,
    log: Log,
    server_name: str = "waitress",
    cpu_quota: CpuQuota | None = None,
) -> Outcome:
    directory = Path(tempfile.mkdtemp(prefix="skat-halls-"))
    try:
        return _run(
            scratch,
            directory,
            teams,
            halls,
            every,
            league_days,
            workers,
            threads,
            timeout,
            seed,
            log,
            server_name,
            cpu_quota,
        )
    finally:
        shutil.rmtree(directory, ignore_errors=True)


def _run(
    scratch, directory, teams, halls, every, league_days, workers, threads, timeout, seed, log, server_name, cpu_quota
):
    started = time.perf_counter()
    log(f"building a national league of {teams} teams, {league_days} league days, {halls} in their halls ...")
    season = national.build_national(
        national_pages.manager(),
        teams=teams,
        league_days=league_days,
        seed=seed,
        log=log,
        halls=halls,
        directory=directory,
    )
    held = season.held
    log(
        f"  built in {time.perf_counter() - started:.0f} s: {season.deals} deals on the server, {len(held)} hall files"
    )
    path = reverse("leagues:publish")
    connections.close_all()
    sent = Sent()
    server_text = describe(server_name, workers, threads)
    with Server(
        scratch.url, workers, threads, log, cache_dir=scratch.cache_dir, server=server_name, cpu_quota=cpu_quota
    ) as server:
        log(f"  {server_text} on {LOOPBACK}:{server.port}; {len(held)} halls publish, one every {every:g} s")

        async def halls_publish() -> None:
            tasks = []
            for n, hall in enumerate(held):
                if n:
                    await asyncio.sleep(every)
                tasks.append(asyncio.create_task(publish(server.port, path, hall, seed, timeout, sent)))
            await asyncio.gather(*tasks)

        # The server loads the app on its first requests: not measured.
        run_loop(request(server.port, "GET", reverse("healthz"), timeout=timeout))
        began = time.perf_counter()
        run_loop(halls_publish())
        elapsed = time.perf_counter() - began
        server_log = server.output()
    return audit(scratch, season, sent, elapsed, server_text, every, server_log)


def audit(scratch, season, sent: Sent, elapsed: float, server_text: str, every: float, server_log: str) -> Outcome:
    """Every hall's match day stored once, by its host, with its file's deals."""
    held = season.held
    stored = _stored(held)
    five_xx = sum(count for status, count in sent.statuses.items() if isinstance(status, int) and status >= 500)
    p99 = percentile(sent.latencies, 0.99)
    deals = sum(hall.deals for hall in held)
    lines = [
        f"{scratch.description.split()[0]}, {server_text}; a national league of {len(season.groups)} groups,"
        f" {season.deals} deals stored before",
        f"publications  {len(held)} halls, one every {every:g} s, {deals} deals"
        f" ({deals // max(1, len(held))} a file), sent in {elapsed:.0f} s",
        f"latency       p50 {percentile(sent.latencies, 0.5):.2f} s, p95 {percentile(sent.latencies, 0.95):.2f} s,"
        f" p99 {p99:.2f} s, max {max(sent.latencies, default=0):.2f} s",
        "statuses      " + ", ".join(f"{status}: {count}" for status, count in sorted(sent.statuses.items(), key=str)),
        f"stored        {stored.days} match days: lost {len(stored.lost)}, stored twice {len(stored.duplicated)},"
        f" by another host {len(stored.wrong_host)}, deals differing from the file {len(stored.short)}",
        f"errors        {len(sent.errors)}; 5xx: {five_xx}",
    ]
    lines += [f"  {error}" for error in sent.errors[:10]]
    if five_xx and server_log.strip():
        lines.append("server log (end):\n" + server_log)
    failed = _failures(stored, sent, p99)
    lines.append("result        " + ("pass" if not failed else "FAIL: " + "; ".join(failed)))
    return Outcome(lines, failed)


@dataclass
class _Stored:
    """What the server holds of the halls' match days."""

    days: int
    lost: list[str]
    duplicated: list[str]
    wrong_host: list[str]
    short: list[str]


def _stored(held: list[national.HallFile]) -> _Stored:
    """The halls' publications as stored: each match day once, by its own host, with every deal of its file."""
    keys = {hall.key: hall for hall in held}
    days = {day.key: day for day in MatchDay.objects.filter(key__in=keys).select_related("host")}
    publications = list(
        Publication.objects.filter(match_day__key__in=keys).values_list("match_day__key", "host__name")
    )
    per_key: dict[str, int] = {}
    for key, _host in publications:
        per_key[key] = per_key.get(key, 0) + 1
    return _Stored(
        days=len(per_key),
        lost=[key for key in keys if key not in per_key],
        duplicated=[key for key, count in per_key.items() if count > 1],
        wrong_host=[key for key, host in publications if host != days[key].host.name],
        short=[
            key
            for key, day in days.items()
            if Game.objects.filter(table__series__tournament=day.tournament_id).count() != keys[key].deals
        ],
    )


def _failures(stored: _Stored, sent: Sent, p99: float) -> list[str]:
    """Why the run failed; empty when it passed."""
    failed = []
    if stored.lost or stored.duplicated or stored.wrong_host or stored.short:
        failed.append("publications lost, stored twice, by another host or not as sent")
    if sent.errors:
        failed.append("halls refused or timed out")
    if p99 >= P99_TARGET:
        failed.append(f"publication p99 {p99:.2f} s >= {P99_TARGET:g} s")
    return failed
