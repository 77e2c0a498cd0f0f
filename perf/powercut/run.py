"""The power-cut run behind ``manage.py powercut``: phones enter deals, the power goes, what survived is counted.

Each cut: the office serves from the simulated disk (:mod:`perf.powercut.office`), one
phone per table of the running series enters deals (:mod:`perf.powercut.phones`), and
at a random moment every serving process gets SIGKILL and the disk drops what was not
synced. Then the deals the office acknowledged are looked up in the database the disk
kept, and the office is started again on it: it must start, and with the same secret
key (the seat PINs and the table cards' links are signed with it).

Some cuts come right after a start (``early``: within two seconds of the office
listening, when the key file and the static files' manifest were just written), the
others amid the evening. The disk's two models alternate, from the first cut on:
names at once (only file data waits for its fsync, as LazyFS models) and strict (names
too wait for the fsync of their folder). When every table of the demo is full, the next
cut starts over on a fresh data folder.
"""

from __future__ import annotations

import random
import shutil
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from perf.client import run_loop
from perf.timing import Log

from .office import Office
from .phones import Tally, enter_until

#: An early cut comes this many seconds at most after the office listens; another one later.
EARLY = (0.0, 2.0)
LATER = (4.0, 12.0)


@dataclass
class Cut:
    """One cut's row of the report."""

    number: int
    model: str
    early: bool
    after: float  # seconds from the office listening to the cut
    acknowledged: int
    lost: int
    database: str = ""  # why the database could not be read after the cut
    start_failed: str = ""  # why the office did not start again
    key_changed: bool = False

    @property
    def bad(self) -> bool:
        return bool(self.lost or self.database or self.start_failed or self.key_changed)


def names_at_once(number: int) -> bool:
    """The disk model of cut ``number``: names at once for the odd ones, strict for the even."""
    return number % 2 == 1


def is_early(number: int, every: int) -> bool:
    """Cut 1 and every ``every``-th after it come right after a start."""
    return every > 0 and (number - 1) % every == 0


def run(
    *,
    cuts: int,
    early_every: int,
    processes: int,
    threads: int,
    think: float,
    seed: int,
    log: Log,
    keep: Path | None = None,
) -> list[Cut]:
    """``cuts`` cuts, each row as it is known; the folders are removed at the end unless ``keep``."""
    base = Path(tempfile.mkdtemp(prefix="skat-powercut-", dir=keep))
    office = Office(base, processes=processes, threads=threads)
    rng = random.Random(seed)
    rows: list[Cut] = []
    try:
        fresh = True
        for number in range(1, cuts + 1):
            model = names_at_once(number)
            if fresh:
                office.fresh()
                office.mount(names_at_once=model)
                started = time.monotonic()
                if problem := office.start():
                    raise RuntimeError(f"the office did not start on an empty data folder: {problem}")
                log(f"  a fresh data folder: the first start took {time.monotonic() - started:.0f} s")
                acknowledged: dict[tuple[int, int], int] = {}
                fresh = False
            row, full = one_cut(office, number, model, is_early(number, early_every), acknowledged, rng, think, log)
            rows.append(row)
            if row.start_failed or row.database or full:  # the next cut on a fresh data folder
                office.close()
                fresh = True
    finally:
        office.close()
        if keep is None:
            shutil.rmtree(base, ignore_errors=True)
        else:
            log(f"  kept: {base}")
    return rows


def one_cut(
    office: Office,
    number: int,
    model: bool,
    early: bool,
    acknowledged: dict[tuple[int, int], int],
    rng: random.Random,
    think: float,
    log: Log,
) -> tuple[Cut, bool]:
    """Phones until the cut, the cut, the count, the start after it; and whether the tables are full."""
    key = office.key()
    tables = office.running_tables()
    tally = Tally()
    after = rng.uniform(*(EARLY if early else LATER))
    seed = rng.randrange(2**32)
    run_loop(enter_until(office.port, tables, tally, office.kill, seconds=after, seed=seed, think=think))
    office.cut()
    for deal in tally.acknowledged:
        acknowledged[deal] = number
    row = Cut(number, "names at once" if model else "strict", early, after, len(tally.acknowledged), 0)
    kept = office.deals_on_disk()
    if isinstance(kept, str):
        row.database = kept
        row.lost = len(acknowledged)
    else:
        missing = [deal for deal in acknowledged if deal not in kept]
        row.lost = len(missing)
        for deal in missing:  # counted once; the phones enter that deal again
            del acknowledged[deal]
    restarted = 0.0
    if not row.database:
        office.mount(names_at_once=names_at_once(number + 1))
        restarted = time.monotonic()
        row.start_failed = office.start() or ""
        restarted = time.monotonic() - restarted
        row.key_changed = office.key() != key  # generated again (or not readable) if it changed
    log(
        f"  cut {number} ({row.model}, {after:.1f} s after the start): {row.acknowledged} acknowledged, "
        f"{row.lost} lost{', ' + row.database if row.database else ''}"
        f"{', the office did not start again: ' + last_line(row.start_failed) if row.start_failed else ''}"
        f"{', the secret key changed' if row.key_changed else ''}"
        f"{'' if row.database else f'; the start after it took {restarted:.0f} s'}"
    )
    if tally.errors:
        log("    " + "; ".join(tally.errors[:3]))
    return row, len(tally.finished) == len(tables)


def last_line(text: str) -> str:
    """The last line a failed start printed (its error)."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[-1][:300] if lines else "(nothing printed)"


def report(rows: list[Cut]) -> list[str]:
    """The table of the cuts and its totals, in Markdown (the docs' "Benchmarks" page takes it as it is)."""
    lines = [
        "| cut | disk | when | acknowledged | lost | starts failed | key changed |",
        "| --- | --- | --- | ---: | ---: | ---: | --- |",
    ]
    for row in rows:
        when = f"{row.after:.1f} s after {'the start' if row.early else 'the start, amid deals'}"
        lost = f"{row.lost}" + (f" ({row.database})" if row.database else "")
        lines.append(
            f"| {row.number} | {row.model} | {when} | {row.acknowledged} | {lost} | "
            f"{1 if row.start_failed else 0} | {'yes' if row.key_changed else 'no'} |"
        )
    lines.append(
        f"| **{len(rows)} cuts** | | | **{sum(r.acknowledged for r in rows)}** | **{sum(r.lost for r in rows)}** | "
        f"**{sum(1 for r in rows if r.start_failed)}** | **{sum(1 for r in rows if r.key_changed)}** |"
    )
    return lines


def failures(rows: list[Cut]) -> list[str]:
    """What makes the run fail: any acknowledged deal lost, a failed start, a changed key, an unreadable database."""
    found = []
    if lost := sum(r.lost for r in rows):
        found.append(f"{lost} acknowledged deal(s) lost")
    if failed := [r for r in rows if r.start_failed]:
        found.append(f"{len(failed)} start(s) failed after a cut: {last_line(failed[0].start_failed)}")
    if changed := sum(1 for r in rows if r.key_changed):
        found.append(f"the secret key changed after {changed} cut(s)")
    if unreadable := [r for r in rows if r.database]:
        found.append(f"{len(unreadable)} database(s) unreadable after a cut: {unreadable[0].database}")
    return found
