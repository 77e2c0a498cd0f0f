"""The measuring helpers: a :class:`Result` beside its floor and target, medians, peak memory.

Shared by the bench's figures (:mod:`perf.bench`) and its report
(:mod:`perf.report`). Times are in seconds, memory in bytes.
"""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path

from django.db import connections

#: Where the tools write their progress (a command's stdout, print, or nothing).
Log = Callable[[str], None]

MS = 1e-3
MB = 1024 * 1024


@dataclass
class Result:
    """One measured figure. Times in seconds, memory in bytes."""

    median: float | None
    floor: float | None = None
    target: float | None = None  # absolute
    target_ratio: float | None = None  # against the floor
    unit: str = "s"  # "s" or "B"
    note: str = ""
    available: bool = True

    @property
    def ratio(self) -> float | None:
        if self.median is None or not self.floor:
            return None
        return self.median / self.floor

    @property
    def ok(self) -> bool:
        if not self.available or self.median is None:
            return True
        if self.target is not None and self.median > self.target:
            return False
        return not (self.target_ratio is not None and self.ratio is not None and self.ratio > self.target_ratio)


def not_available(module: str, **targets) -> Result:
    """The row of a figure whose module is not installed yet: its target, no measurement."""
    return Result(None, available=False, note=f"not available ({module} is missing)", **targets)


def median_time(run: Callable[[], object], repeat: int, *, warm: bool = True) -> float:
    """The median wall time of ``repeat`` calls (after one unmeasured warm-up call)."""
    if warm:
        run()
    times = []
    for _ in range(max(1, repeat)):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def paired_median_times(run: Callable[[], object], floor: Callable[[], object], repeat: int) -> tuple[float, float]:
    """Median wall times of ``run`` and ``floor``, called alternately ``repeat`` times each (after a warm-up)."""
    run()
    floor()
    times: tuple[list[float], list[float]] = ([], [])
    for _ in range(max(1, repeat)):
        for call, into in ((run, times[0]), (floor, times[1])):
            start = time.perf_counter()
            call()
            into.append(time.perf_counter() - start)
    return statistics.median(times[0]), statistics.median(times[1])


def peak_memory(run: Callable[[], object]) -> tuple[float, int, int]:
    """Run ``run`` in a forked child process: (seconds, peak RSS, RSS at start) in bytes.

    The child resets its peak RSS after the fork (Linux /proc/self/clear_refs), so the
    figure is the whole process's high-water mark while it does only this work: what a
    server worker needs. Where /proc is missing, tracemalloc's peak of Python
    allocations is the fallback (lower: it misses C allocations).
    """
    if not Path("/proc/self/status").exists() or not hasattr(os, "fork"):
        import tracemalloc

        tracemalloc.start()
        start = time.perf_counter()
        run()
        seconds = time.perf_counter() - start
        _current, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        return seconds, peak, 0

    connections.close_all()  # the child opens its own connection
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child reports through the pipe
        code = 0
        try:
            os.close(read)
            with suppress(OSError):
                Path("/proc/self/clear_refs").write_text("5")
            baseline = _status_kb("VmRSS")
            start = time.perf_counter()
            run()
            seconds = time.perf_counter() - start
            os.write(write, f"{seconds} {_status_kb('VmHWM')} {baseline}".encode())
        except BaseException:
            code = 1
        finally:
            os._exit(code)
    os.close(write)
    with os.fdopen(read) as pipe:
        answer = pipe.read()
    _pid, status = os.waitpid(pid, 0)
    if not answer or os.waitstatus_to_exitcode(status) != 0:
        raise RuntimeError("the measured run failed in the child process")
    seconds, peak_kb, baseline_kb = answer.split()
    return float(seconds), int(peak_kb) * 1024, int(baseline_kb) * 1024


def _status_kb(key: str) -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(key + ":"):
            return int(line.split()[1])
    return 0
