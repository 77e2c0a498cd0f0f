"""Once a minute, how often a serving process brought its standings up to date
(:mod:`standings.tally`) and what it cost: the load test's server log tells how the
work is spread over the processes (INFO: ``LOG_LEVEL=INFO``)."""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable

logger = logging.getLogger("standings.tally")

#: Seconds between two log lines of :func:`report`.
REPORT_EVERY = 60.0
_reported = {"at": time.monotonic(), "builds": 0, "updates": 0, "seconds": 0.0}
_guard = threading.Lock()


def report(counts: Callable[[], dict[str, float]]) -> None:
    """A line when a minute has passed since the last: the ``counts`` (builds, updates,
    seconds of the tallies kept now) since then."""
    now = time.monotonic()
    if now - _reported["at"] < REPORT_EVERY or not logger.isEnabledFor(logging.INFO):
        return
    with _guard:
        if now - _reported["at"] < REPORT_EVERY:
            return
        total = counts()
        # A tally dropped (KEPT) takes its counts along: never less than nothing.
        builds = max(total["builds"] - _reported["builds"], 0)
        updates = max(total["updates"] - _reported["updates"], 0)
        seconds = max(total["seconds"] - _reported["seconds"], 0.0)
        _reported.update(total, at=now)
    if builds or updates:
        logger.info(
            "standings in process %d, last %.0f s: computed whole %d times, moved by tables %d times, %.0f ms in all",
            os.getpid(),
            REPORT_EVERY,
            builds,
            updates,
            seconds * 1000,
        )
