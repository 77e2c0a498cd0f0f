"""``manage.py powercut``: power cuts amid an evening, and how many acknowledged deals they cost.

The office (``serve``, the demo in a fresh data folder) runs on a simulated disk
(:mod:`perf.powercut.mount`: a FUSE pass-through that keeps only what was fsynced); one
phone per table enters deals over loopback; at a random moment every serving process
gets SIGKILL and the disk drops what was not synced; the office must start again with
the same secret key and hold every deal it acknowledged. ``--cuts`` times, then a table
of the cuts. Exits non-zero on any loss, failed start or changed key. Linux with
/dev/fuse, Debian's fuse3 and mfusepy (the dev extras). See the docs, "Benchmarks".
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from office.workers import MAX_PROCESSES, default_processes
from perf.powercut import run
from perf.powercut.mount import available


class Command(BaseCommand):
    help = (
        "Serve the office from a simulated disk that keeps only what was fsynced, let phones enter deals, cut the "
        "power (SIGKILL to every serving process, the unsynced data dropped) --cuts times, start it again each "
        "time, and count the acknowledged deals lost, failed starts and changed secret keys."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("--cuts", type=int, default=6, help="power cuts (default 6)")
        parser.add_argument(
            "--early-every",
            type=int,
            default=3,
            help="cut 1 and every N-th after it come within 2 s of a start (default 3; 0: none)",
        )
        parser.add_argument(
            "--processes",
            type=int,
            default=default_processes(),
            help="serving processes, as serve --processes (default: one per core, at most 4)",
        )
        parser.add_argument("--threads", type=int, default=5, help="threads per serving process (default 5)")
        parser.add_argument(
            "--think", type=float, default=0.3, help="a phone waits up to this many seconds between deals (0.3)"
        )
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--keep", type=Path, help="keep the data folders in this folder, to look into")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["cuts"] < 1:
            raise CommandError("--cuts must be at least 1, e.g. --cuts 6.")
        if options["early_every"] < 0:
            raise CommandError("--early-every must be 0 or more, e.g. --early-every 3.")
        if not 1 <= options["processes"] <= MAX_PROCESSES:
            raise CommandError(f"--processes must be from 1 to {MAX_PROCESSES}, e.g. --processes 2.")
        if options["threads"] < 1:
            raise CommandError("--threads must be at least 1, e.g. --threads 5.")
        if options["think"] < 0:
            raise CommandError("--think must be 0 or more seconds, e.g. --think 0.3.")
        if options["keep"] is not None and not options["keep"].is_dir():
            raise CommandError(f"--keep {options['keep']} is not a folder: name an existing one.")
        if problem := available():
            raise CommandError(f"The power-cut simulator cannot run here: {problem}.")

        def log(line: str) -> None:
            self.stdout.write(line)
            self.stdout.flush()

        log(
            f"{options['cuts']} power cuts, serve with {options['processes']} process(es) x {options['threads']} "
            "thread(s) on a simulated disk, one phone per table of the demo"
        )
        try:
            rows = run.run(
                cuts=options["cuts"],
                early_every=options["early_every"],
                processes=options["processes"],
                threads=options["threads"],
                think=options["think"],
                seed=options["seed"],
                log=log,
                keep=options["keep"],
            )
        except RuntimeError as error:
            raise CommandError(str(error)) from None
        log("")
        for line in run.report(rows):
            log(line)
        failed = run.failures(rows)
        log("")
        log("result: " + ("pass" if not failed else "FAIL: " + "; ".join(failed)))
        if failed:
            raise CommandError("Power cuts cost what the office had acknowledged: " + "; ".join(failed))
