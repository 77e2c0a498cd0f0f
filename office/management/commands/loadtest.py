"""``manage.py loadtest``: scorekeepers at once through the table links, then an audit of the database.

See README, BENCHMARKS, and :mod:`office.perf.loadtest`.
"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from office.perf import loadtest, scorekeepers, scratch


class Command(BaseCommand):
    help = (
        "Serve the office with gunicorn on 127.0.0.1 against a throwaway database, let simulated scorekeepers "
        "enter whole tables at once (with double submits and resends), then check every game and the standings."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("--clients", type=int, default=300, help="scorekeepers, one table each (default 300)")
        parser.add_argument("--rounds", type=int, default=2, help="rounds per table: 4 deals each at four (default 2)")
        parser.add_argument(
            "--database",
            default="sqlite",
            help="sqlite (a temporary file, the default) or a PostgreSQL server URL such as "
            "postgres://postgres@127.0.0.1:5432/ - a scratch database is created there and dropped",
        )
        parser.add_argument("--workers", type=int, help="gunicorn workers (default: 4 on PostgreSQL, 1 on SQLite)")
        parser.add_argument("--threads", type=int, help="threads per worker (default: 1 on PostgreSQL, 4 on SQLite)")
        parser.add_argument(
            "--think",
            type=float,
            default=10.0,
            help="mean seconds between a table's deals, from half to 1.5 times it (default 10; real play: ~90)",
        )
        parser.add_argument(
            "--ramp",
            type=float,
            help="the phones open their links spread over this many seconds (default: the think time)",
        )
        parser.add_argument("--double", type=float, default=0.05, help="share of deals double-submitted (0.05)")
        parser.add_argument("--retry", type=float, default=0.05, help="share resent after a client timeout (0.05)")
        parser.add_argument("--limit", type=float, default=600, help="stop the run after this many seconds (600)")
        parser.add_argument("--seed", type=int, default=1)

    def handle(self, *args, **options) -> None:
        if options["clients"] < 1 or options["rounds"] < 1:
            raise CommandError("--clients and --rounds must be at least 1")
        postgres = options["database"] not in ("", "sqlite")
        workers = options["workers"] or (4 if postgres else 1)
        threads = options["threads"] or (1 if postgres else 4)
        plan = scorekeepers.Plan(
            think=options["think"],
            ramp=options["think"] if options["ramp"] is None else options["ramp"],
            double=options["double"],
            retry=options["retry"],
        )
        log = self.stdout.write
        with scratch.scratch_database(options["database"], log=log, prefix="bench_load") as database:
            outcome = loadtest.run(
                database,
                clients=options["clients"],
                rounds=options["rounds"],
                workers=workers,
                threads=threads,
                plan=plan,
                limit=options["limit"],
                seed=options["seed"],
                log=log,
            )
        log("")
        for line in outcome.lines:
            log(line)
        if outcome.failed:
            raise CommandError("load test failed: " + "; ".join(outcome.failed))
