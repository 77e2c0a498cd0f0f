"""``manage.py loadtest``: the office under load through the table links, then an audit of the database.

Four profiles. ``tables`` (the default): scorekeepers enter whole tables at once, with
double submits and resends (:mod:`perf.loadtest`). ``hall``: a whole evening's
hall for a bounded time, 750 tables with two lists each at a real pace and 3,000
spectators reloading the public standings (:mod:`perf.hall`). ``seats``: 3,000 players
look up their seats right after a draw, 50 a second for a minute (:mod:`perf.seats`).
``publish``: the halls of a national league day publish their match days (:mod:`perf.publish`).
With ``--cpu-quota Q`` the served office runs in a cgroup limited to Q CPUs, a slower
machine (:mod:`perf.quota.cgroups`), with the backends of its database where that is on a
PostgreSQL server of this machine (:mod:`perf.quota.postgres`); the load generator keeps its
full speed.
See the docs, "Benchmarks".
"""

from __future__ import annotations

import re

from django.core.management.base import BaseCommand, CommandError

from office import serve
from office.workers import default_processes
from perf import hall, hall_clients, loadtest, publish, scorekeepers, scratch, seats
from perf.quota import cgroups


class Command(BaseCommand):
    help = (
        "Serve the office with waitress (or --server) on a loopback address against a throwaway database, load it "
        "with simulated phones (--profile tables: whole tables at once; --profile hall: 750 tables with two lists "
        "and 3,000 spectators at a real pace; --profile seats: 3,000 players look up their seats after a draw), then "
        "check every deal in the database."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "--profile",
            choices=["tables", "hall", "seats", "publish"],
            default="tables",
            help="tables: scorekeepers enter whole tables at once (default); hall: a whole hall at a real pace; "
            "seats: the players look up their seats right after a draw; "
            "publish: the halls of a national league day publish their match days",
        )
        parser.add_argument(
            "--database",
            default="sqlite",
            help="sqlite (a temporary file, the default) or a PostgreSQL server URL such as "
            "postgres://postgres@127.0.0.1:5432/ - a scratch database is created there and dropped",
        )
        parser.add_argument(
            "--server",
            choices=serve.SERVERS,
            default=serve.SERVERS[0],
            help="the WSGI server: waitress (the office's own, as skat-office serve; the default), "
            "or gunicorn, granian, hypercorn to compare",
        )
        parser.add_argument(
            "--workers",
            type=int,
            help="server processes (waitress: as skat-office serve, one per core, at most 4; others: tables 4 on "
            "PostgreSQL, 1 on SQLite; hall 2-4 by cores)",
        )
        parser.add_argument(
            "--threads",
            type=int,
            help="threads per process (waitress: 5, as serve; others: tables 1 on PostgreSQL, 4 on SQLite; hall 4)",
        )
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument(
            "--cpu-quota",
            type=float,
            metavar="Q",
            help="the server's processes (not the load generator) in a cgroup limited to Q CPUs, a slower machine: "
            "1.0 on a 2-core machine is one half as fast; needs Linux cgroups writable (root). A PostgreSQL "
            "server on this machine lends the group the backends of the run's database while it runs",
        )
        tables = parser.add_argument_group("profile tables")
        tables.add_argument("--clients", type=int, default=300, help="scorekeepers, one table each (default 300)")
        tables.add_argument("--rounds", type=int, default=2, help="rounds per table: 4 deals each at four (default 2)")
        tables.add_argument(
            "--think",
            type=float,
            default=10.0,
            help="mean seconds between a table's deals, from half to 1.5 times it (default 10; real play: ~90)",
        )
        tables.add_argument(
            "--ramp", type=float, help="the phones open their links spread over this many seconds (default: --think)"
        )
        tables.add_argument("--double", type=float, default=0.05, help="share of deals double-submitted (0.05)")
        tables.add_argument("--retry", type=float, default=0.05, help="share resent after a client timeout (0.05)")
        tables.add_argument("--limit", type=float, default=600, help="stop the run after this many seconds (600)")
        hall_group = parser.add_argument_group("profile hall")
        hall_group.add_argument("--tables", type=int, default=750, help="tables, two phones each (default 750)")
        hall_group.add_argument("--spectators", type=int, default=3000, help="spectators on the standings (3000)")
        hall_group.add_argument("--duration", type=float, default=600, help="seconds the hall plays (default 600)")
        hall_group.add_argument("--deal-min", type=float, default=60.0, help="fewest seconds per deal (60)")
        hall_group.add_argument("--deal-max", type=float, default=120.0, help="most seconds per deal (120)")
        hall_group.add_argument("--poll", type=float, default=30.0, help="seconds between a spectator's reloads (30)")
        hall_group.add_argument(
            "--timeout", type=float, default=30.0, help="seconds a phone waits for an answer before sending again (30)"
        )

        seats_group = parser.add_argument_group("profile seats")
        seats_group.add_argument("--players", type=int, default=3000, help="players looking up their seats (3000)")
        seats_group.add_argument("--rate", type=float, default=50.0, help="lookups per second (50)")
        seats_group.add_argument(
            "--burst", type=float, default=60.0, help="seconds the lookups go on after the draw (60)"
        )
        seats_group.add_argument(
            "--lookup-share",
            type=float,
            default=0.2,
            help="share typing start number and surname instead of scanning the start card (0.2)",
        )
        publish_group = parser.add_argument_group("profile publish")
        publish_group.add_argument(
            "--league-teams", type=int, default=1000, help="teams of the national league (default 1000, the DSkV)"
        )
        publish_group.add_argument(
            "--halls", type=int, default=250, help="halls publishing the last league day's match days (default 250)"
        )
        publish_group.add_argument(
            "--every", type=float, default=15.0, help="seconds between two halls' publications (default 15)"
        )
        publish_group.add_argument(
            "--league-days", type=int, default=5, help="league days; the halls publish the last one (default 5)"
        )

    def handle(self, *args, **options) -> None:
        log = self.stdout.write
        profiles = {"hall": self.hall, "publish": self.publish, "seats": self.seats, "tables": self.tables}
        try:
            with cgroups.from_option(options["cpu_quota"], "loadtest") as quota:
                outcome = profiles[options["profile"]](options, log, quota)
        except cgroups.QuotaRefused as refused:
            raise CommandError(str(refused)) from None
        if quota is not None:
            self.add_quota(outcome, quota)
        log("")
        for line in outcome.lines:
            log(line)
        if outcome.failed:
            raise CommandError("load test failed: " + "; ".join(outcome.failed))

    @staticmethod
    def add_quota(outcome: loadtest.Outcome, quota: cgroups.CpuQuota) -> None:
        """The quota's lines under the report's head line; a server process outside the group fails the run."""
        width = re.match(r"result\s+", outcome.lines[-1]).end()
        outcome.lines[1:1] = [f"{label:<{width}}{text}" for label, text in quota.report()]
        if quota.outside or not quota.members:
            outcome.failed.append("the server's processes not all in the cgroup")
            outcome.lines[-1] = f"{'result':<{width}}FAIL: " + "; ".join(outcome.failed)

    def tables(self, options: dict, log, quota: cgroups.CpuQuota | None) -> loadtest.Outcome:
        if options["clients"] < 1 or options["rounds"] < 1:
            raise CommandError("--clients and --rounds must be at least 1")
        postgres = options["database"] not in ("", "sqlite")
        workers = options["workers"] or self.default_workers(options, 4 if postgres else 1)
        threads = options["threads"] or self.default_threads(options) or (1 if postgres else 4)
        plan = scorekeepers.Plan(
            think=options["think"],
            ramp=options["think"] if options["ramp"] is None else options["ramp"],
            double=options["double"],
            retry=options["retry"],
        )
        with scratch.scratch_database(options["database"], log=log, prefix="bench_load") as database:
            return loadtest.run(
                database,
                clients=options["clients"],
                rounds=options["rounds"],
                workers=workers,
                threads=threads,
                plan=plan,
                limit=options["limit"],
                seed=options["seed"],
                log=log,
                server_name=options["server"],
                cpu_quota=quota,
            )

    @staticmethod
    def default_workers(options: dict, others: int) -> int:
        """waitress's processes as skat-office serve has them (office.workers); ``others`` for the rest."""
        return default_processes() if options["server"] == "waitress" else others

    @staticmethod
    def default_threads(options: dict) -> int | None:
        """waitress's threads as skat-office serve has them (in each process)."""
        return serve.DEFAULT_THREADS if options["server"] == "waitress" else None

    def hall(self, options: dict, log, quota: cgroups.CpuQuota | None) -> loadtest.Outcome:
        if options["tables"] < 2 or options["spectators"] < 0 or options["duration"] <= 0:
            raise CommandError("--tables must be at least 2, --spectators at least 0, --duration above 0")
        if not 0 < options["deal_min"] <= options["deal_max"] or options["poll"] <= 0 or options["timeout"] <= 0:
            raise CommandError("--deal-min must be above 0 and at most --deal-max; --poll and --timeout above 0")
        pace = hall_clients.Pace(
            deal_min=options["deal_min"],
            deal_max=options["deal_max"],
            control_lag=(min(3.0, options["deal_min"] / 4), min(20.0, options["deal_min"] / 2)),
            poll=options["poll"],
            timeout=options["timeout"],
        )
        with scratch.scratch_database(options["database"], log=log, prefix="bench_hall") as database:
            return hall.run(
                database,
                tables=options["tables"],
                spectators=options["spectators"],
                duration=options["duration"],
                workers=options["workers"] or self.default_workers(options, serve.default_workers()),
                threads=options["threads"] or self.default_threads(options) or 4,
                pace=pace,
                seed=options["seed"],
                log=log,
                server_name=options["server"],
                cpu_quota=quota,
            )

    def seats(self, options: dict, log, quota: cgroups.CpuQuota | None) -> loadtest.Outcome:
        if options["players"] < 8 or options["rate"] <= 0 or options["burst"] <= 0:
            raise CommandError("--players must be at least 8, --rate and --burst above 0")
        if not 0 <= options["lookup_share"] <= 1:
            raise CommandError("--lookup-share must be between 0 and 1")
        with scratch.scratch_database(options["database"], log=log, prefix="bench_seats") as database:
            return seats.run(
                database,
                players=options["players"],
                rate=options["rate"],
                duration=options["burst"],
                lookup_share=options["lookup_share"],
                workers=options["workers"] or self.default_workers(options, serve.default_workers()),
                threads=options["threads"] or self.default_threads(options) or 4,
                seed=options["seed"],
                log=log,
                server_name=options["server"],
                cpu_quota=quota,
            )

    def publish(self, options: dict, log, quota: cgroups.CpuQuota | None) -> loadtest.Outcome:
        teams, halls = options["league_teams"], options["halls"]
        if teams < 4 or teams % 4 or options["league_days"] < 1:
            raise CommandError("--league-teams must be a multiple of 4, at least 4; --league-days at least 1")
        if not 1 <= halls <= teams // 4 or options["every"] < 0 or options["timeout"] <= 0:
            raise CommandError(
                f"--halls must be 1 to {teams // 4} (a league day's match days), --every at least 0, --timeout above 0"
            )
        with scratch.scratch_database(options["database"], log=log, prefix="bench_publish") as database:
            return publish.run(
                database,
                teams=teams,
                halls=halls,
                every=options["every"],
                league_days=options["league_days"],
                workers=options["workers"] or self.default_workers(options, serve.default_workers()),
                threads=options["threads"] or self.default_threads(options) or 4,
                timeout=options["timeout"],
                seed=options["seed"],
                log=log,
                server_name=options["server"],
                cpu_quota=quota,
            )
