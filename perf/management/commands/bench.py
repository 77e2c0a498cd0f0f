"""``manage.py bench``: build a synthetic tournament in a throwaway database and time it.

Prints one table of figures (each the median of repeated runs) with its floor and
target, then one of pages (server time, size and queries of every page at the
tournament's size, with the test client in this process), each with a pass/fail mark;
exits non-zero when a target is missed. See the docs, "Benchmarks", and
:mod:`perf.bench` (the figures), :mod:`perf.pages` (the pages),
:mod:`perf.fixtures` (the tournament), :mod:`perf.scratch` (the throwaway database).
With ``--cpu-quota Q`` the timed part runs in a cgroup limited to Q CPUs, a slower
machine (:mod:`perf.quota.cgroups`), with its PostgreSQL connection's backend where the server
is on this machine (:mod:`perf.quota.postgres`); the build before it runs at full speed.
"""

from __future__ import annotations

import os
import platform
import time

from django.core.management.base import BaseCommand, CommandError
from django.db import connections

from config.heap import freeze_startup_heap
from perf import bench, fixtures, national, national_pages, pages, report, scratch
from perf.quota import cgroups, postgres


class Command(BaseCommand):
    help = (
        "Build a synthetic tournament (default 3,000 players, 3 series, every deal entered) in a throwaway "
        "database and print the timed figures against their targets. Never touches your own database."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("--players", type=int, default=3000, help="registered players (default 3000)")
        parser.add_argument("--series", type=int, default=3, help="series, every deal entered (default 3)")
        parser.add_argument("--repeat", type=int, default=5, help="runs per figure; the median counts (default 5)")
        parser.add_argument("--seed", type=int, default=1, help="seed of the synthetic games (default 1)")
        parser.add_argument(
            "--database",
            default="sqlite",
            help="sqlite (a temporary file, the default) or a PostgreSQL server URL such as "
            "postgres://postgres@127.0.0.1:5432/ - a scratch database is created there and dropped",
        )
        parser.add_argument(
            "--league-teams",
            type=int,
            help="the national league profile instead of the tournament: this many teams (a multiple of 4; "
            "the DSkV: 1000) in groups of 16, every match day played, then its pages timed",
        )
        parser.add_argument(
            "--league-days",
            type=int,
            default=national.LEAGUE_DAYS,
            help=f"league days of the national profile (default {national.LEAGUE_DAYS})",
        )
        parser.add_argument(
            "--only",
            action="append",
            default=[],
            help="run only figures and pages whose name contains this (repeatable)",
        )
        parser.add_argument(
            "--cpu-quota",
            type=float,
            metavar="Q",
            help="time in a cgroup limited to Q CPUs, a slower machine (the build before runs at full speed): "
            "1.0 on a 2-core machine is one half as fast; needs Linux cgroups writable (root). On a PostgreSQL "
            "server of this machine the bench's connection's backend is timed in it too",
        )

    def handle(self, *args, **options) -> None:
        try:
            with cgroups.from_option(options["cpu_quota"], "bench") as quota:
                self.run(options, quota)
        except cgroups.QuotaRefused as refused:
            raise CommandError(str(refused)) from None

    def run(self, options: dict, quota: cgroups.CpuQuota | None) -> None:
        if options["players"] < 6 or options["series"] < 1 or options["repeat"] < 1:
            raise CommandError("--players must be at least 6, --series and --repeat at least 1")
        log = self.stdout.write
        if options["league_teams"] is not None:
            self.league(options, log, quota)
            return

        def chosen(name: str) -> bool:
            return not options["only"] or any(o.lower() in name.lower() for o in options["only"])

        figures = [f for f in bench.FIGURES if chosen(f.name)]
        page_list = [p for p in pages.PAGES if chosen(p.name)]
        with scratch.scratch_database(options["database"], log=log) as database:
            started = time.perf_counter()
            log(f"building {options['players']} players, {options['series']} series ...")
            tournament = fixtures.build(options["players"], options["series"], seed=options["seed"], log=log)
            log(f"built in {time.perf_counter() - started:.1f} s")
            ctx = bench.Context(tournament=tournament, repeat=options["repeat"], log=log)
            # Measure in the heap a server worker has (config/wsgi.py freezes its start-up heap).
            freeze_startup_heap()
            if quota is not None:
                quota.enter()
                postgres.join_connection(quota, connections["default"])
            rows = []
            for figure in figures:
                log(f"measuring: {figure.name} ...")
                rows.append((figure.name, figure.measure(ctx)))
            page_rows = []
            if page_list:
                site = pages.prepare(tournament, log=log)
                for page in page_list:
                    log(f"measuring page: {page.name} ...")
                    page_rows.append((page.name, page.user, pages.measure_page(site, page, options["repeat"])))
            if quota is not None:
                quota.leave()
        log("")
        self.head(database, options, quota)
        if rows:
            log(report.report(rows))
        if page_rows:
            log("")
            log(f"pages at {options['players']} players (server time: the test client in this process)")
            log(report.page_report(page_rows))
        failed = [name for name, result in rows if not result.ok]
        failed += [name for name, _user, result in page_rows if not result.ok]
        if failed:
            raise CommandError(f"{len(failed)} target(s) missed: " + ", ".join(failed))

    def head(self, database: scratch.Scratch, options: dict, quota: cgroups.CpuQuota | None) -> None:
        """The report's head line: database, machine, Python, cores, repeat, and the CPU quota timed in."""
        where = f"{database.description.split()[0]}, {platform.node()}, Python {platform.python_version()}"
        self.stdout.write(f"{where}, {os.cpu_count()} cores, repeat {options['repeat']}")
        if quota is not None:
            for label, text in quota.report():
                note = ", timed in it (the build before ran at full speed)" if label == "cpu quota" else ""
                self.stdout.write(f"{label:<10}{text}{note}")

    def league(self, options: dict, log, quota: cgroups.CpuQuota | None) -> None:
        """The national league profile: build the season, then time its pages (perf.national_pages)."""
        teams, days = options["league_teams"], options["league_days"]
        if teams < national.FOUR or teams % national.FOUR:
            raise CommandError(f"--league-teams must be a multiple of {national.FOUR}, at least {national.FOUR}")
        if days < 1:
            raise CommandError("--league-days must be at least 1")
        page_list = [
            p
            for p in national_pages.PAGES
            if not options["only"] or any(o.lower() in p.name.lower() for o in options["only"])
        ]
        with scratch.scratch_database(options["database"], log=log) as database:
            started = time.perf_counter()
            log(f"building a national league of {teams} teams, {days} league days ...")
            manager = national_pages.manager()
            season = national.build_national(manager, teams=teams, league_days=days, seed=options["seed"], log=log)
            built = time.perf_counter() - started
            log(f"built in {built:.1f} s: {season.deals} deals")
            size = scratch.database_size()
            freeze_startup_heap()
            if quota is not None:
                quota.enter()
                postgres.join_connection(quota, connections["default"])
            site = national_pages.prepare(season, manager)
            page_rows = []
            for page in page_list:
                log(f"measuring page: {page.name} ...")
                page_rows.append((page.name, page.user, pages.measure_page(site, page, options["repeat"])))
            if quota is not None:
                quota.leave()
        log("")
        self.head(database, options, quota)
        groups = len(season.groups)
        log(
            f"national league: {teams} teams in {groups} groups, {days} league days, {teams // 4 * days} match days,"
            f" {season.deals} deals, built in {built:.0f} s, database {report.format_size(size)}"
        )
        log(report.page_report(page_rows))
        failed = [name for name, _user, result in page_rows if not result.ok]
        if failed:
            raise CommandError(f"{len(failed)} target(s) missed: " + ", ".join(failed))
