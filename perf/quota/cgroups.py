"""A slower machine to measure on: a cgroup of its own limited to a number of CPUs.

``manage.py loadtest --cpu-quota Q`` starts the served office in it (the load generator
keeps its full speed), ``manage.py bench --cpu-quota Q`` moves its own process in for the
timed part. One group per run, ``skat-office-<what>-<pid>``, under the cpu controller's
root: cgroup v1's ``cpu.cfs_period_us`` / ``cpu.cfs_quota_us``, or v2's ``cpu.max`` in
the unified hierarchy (with ``+cpu`` in the root's ``cgroup.subtree_control``). A process
started through :meth:`CpuQuota.wrap` joins the group before it runs the server, so every
process the server forks or spawns inherits it. The group is removed when the run ends,
also on Ctrl-C or failure; a process still in it is moved back first. Where the run's
database is a PostgreSQL server on this machine, its backends serving the run's database
join the group too (:mod:`perf.quota.postgres`) and go back where they came from before it
is removed.

The root is a parameter: the tests run the class against a tree of plain files standing
for the kernel's, and against the real one where it is writable.

``python -m perf.quota.cgroups PROCS_FILE... -- COMMAND...`` is that start: it writes its own
pid into each ``cgroup.procs`` file, then becomes COMMAND.
"""

from __future__ import annotations

import atexit
import contextlib
import errno
import math
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import NoReturn, Protocol

#: The CFS period: 100 ms, the kernel's default. The quota is Q times it.
PERIOD_US = 100_000
#: The kernel's least quota: 1 ms per period.
LEAST_QUOTA_US = 1_000
CGROUP = Path("/sys/fs/cgroup")
V1_ROOTS = (CGROUP / "cpu", CGROUP / "cpu,cpuacct")


class Guests(Protocol):
    """Processes of another program moved into the group for the run (:mod:`perf.quota.postgres`)."""

    def words(self) -> str: ...
    def stop(self) -> None: ...


class QuotaRefused(Exception):
    """No group can be made as asked: one line naming the option and the reason."""


@dataclass(frozen=True)
class Usage:
    """The group's CPU so far: seconds used (None where not accounted), CFS periods, throttling."""

    cpu_seconds: float | None
    periods: int
    throttled: int
    throttled_seconds: float


def from_option(cpus: float | None, what: str) -> contextlib.AbstractContextManager[CpuQuota | None]:
    """A command's ``--cpu-quota``: its group to enter with ``with``, or nothing where the option is not given.

    Refuses (:class:`QuotaRefused`) at once where no group can be made, before any data is built.
    """
    return contextlib.nullcontext() if cpus is None else CpuQuota(cpus, what)


def default_root() -> Path:
    """Where this machine's cpu controller is: the unified hierarchy if it has cpu, else v1's cpu mount."""
    if "cpu" in _read(CGROUP / "cgroup.controllers").split():
        return CGROUP
    for root in V1_ROOTS:
        if (root / "cpu.cfs_quota_us").exists():
            return root
    return V1_ROOTS[0]


def cpus_text(cpus: float) -> str:
    return f"{cpus:.1f}" if round(cpus, 1) == cpus else f"{cpus:g}"


class CpuQuota:
    """A cgroup limited to ``cpus`` CPUs under ``root``: made on entering, removed on leaving.

    Refuses (:class:`QuotaRefused`) on construction where it cannot work, so a command
    says so before it builds any data; the group itself is made by ``__enter__``.
    """

    def __init__(self, cpus: float, what: str, root: Path | None = None, cores: int | None = None) -> None:
        self.cpus = cpus
        self.cores = cores or os.cpu_count() or 1
        self.root = Path(root) if root is not None else default_root()
        self.option = f"--cpu-quota {cpus:g}"
        self.quota_us = round(cpus * PERIOD_US) if math.isfinite(cpus) else 0  # inf, nan: refused below
        self.version = self._check()
        self.name = f"skat-office-{what}-{os.getpid()}"
        self.group = self.root / self.name
        # cgroup v1 may mount cpuacct apart from cpu (not as "cpu,cpuacct"): a twin group there counts the CPU used.
        acct = self.root.parent / "cpuacct"
        apart = self.version == 1 and not (self.root / "cpuacct.usage").exists()
        self.acct_root = acct if apart and (acct / "cpuacct.usage").exists() else None
        self.acct_group = self.acct_root / self.name if self.acct_root else None
        # Where this process is now: where it, and anything left in the group, goes back to.
        self.homes = {root: home(root) for root in (self.root, self.acct_root) if root is not None}
        self.started: float | None = None
        self.finished: float | None = None
        self.final: Usage | None = None
        self.members: int | None = None  # the server's processes found in the group
        self.outside: list[int] = []  # ... and those found outside it
        self.database: Guests | None = None  # PostgreSQL's backends of the run's database (perf.quota.postgres)
        self.made: set[Path] = set()  # the groups this run made: the only ones it empties and removes

    def _check(self) -> int:
        """The cgroup version under the root, or a refusal."""
        if not sys.platform.startswith("linux"):
            self.refuse(f"needs Linux cgroups, which {sys.platform} does not have")
        if not math.isfinite(self.cpus) or not self.cpus > 0:
            self.refuse("must be a number above 0 (CPUs the server may use)")
        if self.cpus > self.cores:
            self.refuse(f"is more than this machine's {self.cores} cores")
        if self.quota_us < LEAST_QUOTA_US:
            self.refuse(f"is below {LEAST_QUOTA_US / PERIOD_US:g}, the kernel's least (1 ms per 100 ms period)")
        if (self.root / "cpu.cfs_quota_us").exists():
            version, control = 1, self.root / "cgroup.procs"
        elif "cpu" in _read(self.root / "cgroup.controllers").split():
            version, control = 2, self.root / "cgroup.subtree_control"
        else:
            self.refuse(
                f"no cpu controller at {self.root} (neither cgroup v1's cpu.cfs_quota_us nor v2's "
                "cgroup.controllers naming cpu)"
            )
        for path in (self.root, control):
            if not _writable(path):
                self.refuse(
                    f"{path} is not writable (a cgroup needs root, and a cgroup file system mounted read-write)"
                )
        return version

    def refuse(self, reason: str) -> NoReturn:
        raise QuotaRefused(f"{self.option}: {reason}")

    def describe(self) -> str:
        """The report's words: ``CPU quota 1.0 of 2 cores (cgroup v1 cpu.cfs_quota_us)``."""
        knob = "cpu.cfs_quota_us" if self.version == 1 else "cpu.max"
        return f"CPU quota {cpus_text(self.cpus)} of {self.cores} cores (cgroup v{self.version} {knob})"

    def __enter__(self) -> CpuQuota:
        try:
            self._make()
        except OSError as error:
            self.remove()
            self.refuse(f"could not make the cgroup {self.group}: {error.strerror or error}")
        atexit.register(self.remove)
        return self

    def __exit__(self, *_exc) -> None:
        self.remove()

    def sweep(self) -> list[Path]:
        """Remove the groups a killed run left (SIGKILL skips the removal): ours by name, their run's
        process gone, empty, older than :data:`SWEEP_AFTER_SECONDS` (a run elsewhere may be making its own)."""
        removed = []
        for root, _group in self.groups():
            for group in root.glob("skat-office-*-*"):
                pid = group.name.rpartition("-")[2]
                if not pid.isdigit() or Path("/proc", pid).exists() or _read(group / "cgroup.procs").split():
                    continue
                with contextlib.suppress(OSError):
                    if group.is_dir() and time.time() - group.stat().st_mtime > SWEEP_AFTER_SECONDS:
                        _rmdir(group)
                        removed.append(group)
        return removed

    def _make(self) -> None:
        self.sweep()
        if self.version == 2 and "cpu" not in _read(self.root / "cgroup.subtree_control").split():
            _write(self.root / "cgroup.subtree_control", "+cpu")
        self.group.mkdir()  # a group of this name already there is another run's: refused, left alone
        self.made.add(self.group)
        if self.version == 1:
            _write(self.group / "cpu.cfs_period_us", str(PERIOD_US))
            _write(self.group / "cpu.cfs_quota_us", str(self.quota_us))
        else:
            _write(self.group / "cpu.max", f"{self.quota_us} {PERIOD_US}")
        if self.acct_group is not None:
            try:
                self.acct_group.mkdir()
                self.made.add(self.acct_group)
            except OSError:  # the CPU used goes unreported; the quota holds
                self.acct_group = None

    def groups(self) -> list[tuple[Path, Path]]:
        """(controller root, our group under it): the cpu group, and cpuacct's twin where there is one."""
        pairs = [(self.root, self.group), (self.acct_root, self.acct_group)]
        return [(root, group) for root, group in pairs if root is not None and group is not None]

    def procs_files(self) -> list[Path]:
        """The ``cgroup.procs`` files a process writes its pid into to join the group."""
        return [group / "cgroup.procs" for group in (self.group, self.acct_group) if group is not None]

    def wrap(self, argv: list[str]) -> list[str]:
        """``argv`` started inside the group: it joins before it runs, its children inherit it."""
        self.started = self.started or time.monotonic()
        return [sys.executable, "-m", "perf.quota.cgroups", *map(str, self.procs_files()), "--", *argv]

    def enter(self) -> None:
        """This process (all its threads) into the group: the bench's timed part."""
        self.started = self.started or time.monotonic()
        join(self.procs_files(), os.getpid())

    def leave(self) -> None:
        """This process (and the database's backends moved in with it) back where it came from, its usage
        kept (:meth:`settle`)."""
        if self.database is not None:
            self.database.stop()
        self._move_out([os.getpid()])
        self.settle()

    def pids(self) -> set[int]:
        return {int(line) for line in _read(self.group / "cgroup.procs").split()}

    def check(self, pid: int) -> list[int]:
        """The process ``pid`` and all its descendants in the group? Keeps and returns those outside."""
        tree = {pid, *descendants(pid)}
        inside = self.pids()
        self.members = len(tree & inside)
        self.outside = sorted(tree - inside)
        return self.outside

    def usage(self) -> Usage:
        stat = dict(line.split()[:2] for line in _read(self.group / "cpu.stat").splitlines() if line.strip())
        if self.version == 2:
            used = int(stat.get("usage_usec", 0)) / 1e6
            throttled = int(stat.get("throttled_usec", 0)) / 1e6
        else:
            acct = _read((self.acct_group or self.group) / "cpuacct.usage").strip()
            used = int(acct) / 1e9 if acct else None
            throttled = int(stat.get("throttled_time", 0)) / 1e9
        return Usage(used, int(stat.get("nr_periods", 0)), int(stat.get("nr_throttled", 0)), throttled)

    def settle(self) -> Usage:
        """The run's processes have stopped: keep the group's usage and when they stopped."""
        self.finished = time.monotonic()
        self.final = self.usage()
        return self.final

    def report(self) -> list[tuple[str, str]]:
        """The report's lines as (label, text): the quota and, once settled, what the group used of it."""
        members = f", the server's {self.members} processes in it" * bool(self.members)
        lines = [("cpu quota", self.describe() + members + (self.database.words() if self.database else ""))]
        if self.outside:
            lines.append(("outside", f"processes outside the group: {', '.join(map(str, self.outside))}"))
        if self.final is None or self.started is None or self.finished is None:
            return lines
        u, seconds = self.final, max(self.finished - self.started, 1e-9)
        used = "CPU used not accounted (no cpuacct)"
        if u.cpu_seconds is not None:
            average = u.cpu_seconds / seconds
            over = f"{seconds:.{0 if seconds >= 10 else 1}f} s"
            used = f"{average:.2f} CPU on average over {over} ({average / self.cpus:.0%} of the quota)"
        share = f" ({u.throttled / u.periods:.0%})" if u.periods else ""
        throttled = f"throttled in {u.throttled} of {u.periods} periods{share}, {u.throttled_seconds:.1f} s"
        lines.append(("cpu used", f"{used}; {throttled} (cpu.stat nr_throttled, throttled_time)"))
        return lines

    def remove(self) -> None:
        """Move what is still in the group back where this process came from, then remove the group.

        Never raises: it runs while a run ends, maybe on its way out with an error of its own;
        a group it cannot remove is named on stderr.
        """
        atexit.unregister(self.remove)
        if self.database is not None:  # the database server's processes go back to their own groups first
            self.database.stop()
        for root, group in self.groups():
            if group not in self.made or not group.is_dir():
                continue
            try:
                self._empty_and_remove(root, group)
            except OSError as error:
                print(f"{self.option}: could not remove the cgroup {group}: {error}", file=sys.stderr)

    def _empty_and_remove(self, root: Path, group: Path) -> None:
        """Move the group's processes out and remove it; a process that is ending (a closed
        connection's backend not yet reaped) keeps the group busy a moment: tried again for
        up to :data:`BUSY_SECONDS`."""
        deadline = time.monotonic() + BUSY_SECONDS
        while True:
            leftover = sorted({int(line) for line in _read(group / "cgroup.procs").split()})
            join([self.homes[root] / "cgroup.procs"], *leftover)
            try:
                _rmdir(group)
                return
            except OSError as error:
                if error.errno != errno.EBUSY or time.monotonic() > deadline:
                    raise
            time.sleep(0.05)

    def _move_out(self, pids: list[int]) -> None:
        for root, group in self.groups():
            if group.is_dir():
                join([self.homes[root] / "cgroup.procs"], *pids)


#: Seconds a group kept busy by an ending process is tried again before it is given up.
BUSY_SECONDS = 5.0
#: A group left by a killed run is swept once it is this old.
SWEEP_AFTER_SECONDS = 60.0


def join(procs_files: list[Path], *pids: int) -> None:
    """Each of ``pids`` into each group (a write of its pid into the group's ``cgroup.procs``)."""
    for path in procs_files:
        for pid in pids:
            with contextlib.suppress(ProcessLookupError):  # it ended meanwhile
                _write(path, str(pid))


def home(root: Path, proc_cgroup: Path = Path("/proc/self/cgroup")) -> Path:
    """A process's cgroup under ``root`` (``/proc/<pid>/cgroup``; this process's by default), or ``root``
    where it is not there."""
    controller = root.name.split(",")[0]
    for line in _read(proc_cgroup).splitlines():
        _number, controllers, path = line.split(":", 2)
        if controller in controllers.split(",") or (not controllers and (root / "cgroup.controllers").exists()):
            place = root / path.lstrip("/")
            if (place / "cgroup.procs").exists():
                return place
    return root


def descendants(pid: int) -> set[int]:
    """Every process below ``pid`` (its children, theirs, ...), from /proc."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            stat = _read(entry / "stat")
            if stat:  # "pid (comm) state ppid ...": comm may hold spaces and parentheses
                children.setdefault(int(stat.rpartition(")")[2].split()[1]), []).append(int(entry.name))
    found: set[int] = set()
    todo = [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            if child not in found:
                found.add(child)
                todo.append(child)
    return found


def _read(path: Path) -> str:
    try:
        return path.read_text()
    except OSError:
        return ""


def _write(path: Path, text: str) -> None:
    with open(path, "w") as file:  # one write(), as the kernel's files want it
        file.write(text)


def _writable(path: Path) -> bool:
    """Writable by this process; a file also by somebody at all (root passes the check of a 0444 file,
    and the kernel's read-only files are 0444; its directories are 0555 and root makes groups in them)."""
    try:
        mode = path.stat().st_mode
    except OSError:
        return False
    return os.access(path, os.W_OK) and (path.is_dir() or bool(mode & 0o222))


def _rmdir(group: Path) -> None:
    try:
        group.rmdir()
    except OSError as error:
        if error.errno != errno.ENOTEMPTY:
            raise
        # A tree of plain files standing for the kernel's (the tests): its files go first.
        for path in group.iterdir():
            path.unlink()
        group.rmdir()


def main(argv: list[str]) -> None:
    """Join the groups whose ``cgroup.procs`` files come before ``--``, then become the command after it."""
    at = argv.index("--")
    join([Path(name) for name in argv[:at]], os.getpid())
    os.execvp(argv[at + 1], argv[at + 1 :])


if __name__ == "__main__":
    main(sys.argv[1:])
