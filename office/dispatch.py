"""Entries first inside each serving process: waitress's queue of requests waiting for a thread.

waitress hands each parsed request to a queue its threads take from, first come first
served. In a burst (phones opening their table links at the start of a series, the
director printing) the phones' entries and the spectators' kept pages (config.admission,
a millisecond each) waited behind 24 KiB table pages and director pages in that queue:
in the hall profile their p99 was seconds while their own work is milliseconds (docs:
Benchmarks). This queue lets an entry (a POST to a table link, ``/s/``) and a public
page (``/p/``, mostly answered from the kept copy) pass the others; among themselves
they keep their order, and nothing is ever dropped. Nothing waits for ever either: once
the oldest of the others has waited ``PASS_SECONDS``, no request passes it any more (a
flood of spectators beyond the threads' pace would otherwise hold the director's pages
back as long as it lasts).
"""

from __future__ import annotations

import time

from waitress.task import ThreadedTaskDispatcher

#: How long a request that does not go first may be passed by those that do.
PASS_SECONDS = 2.0

#: The table links' pages (a POST there is an entry) and the spectators' pages.
TABLE_PREFIX = "/s/"
SPECTATOR_PREFIX = "/p/"


def goes_first(task: object) -> bool:
    """Whether a queued request passes the others: a table link's POST or a public page.

    The task is waitress's channel (a connection); the request it serves next is the first
    of its ``requests``. Its ``request`` is the one still being read: the same while the
    first is handed over, another (or None) when the channel queues itself again for a
    pipelined request."""
    requests = getattr(task, "requests", None)
    request = requests[0] if requests else getattr(task, "request", None)
    path = getattr(request, "path", None) or ""
    if path.startswith(SPECTATOR_PREFIX):
        return True
    return path.startswith(TABLE_PREFIX) and getattr(request, "command", "") == "POST"


class EntriesFirst(ThreadedTaskDispatcher):
    """waitress's dispatcher, with entries and spectators ahead of every other waiting request."""

    def add_task(self, task) -> None:
        first = goes_first(task)
        task.skat_first = first
        task.skat_queued = time.monotonic()
        if not first:
            super().add_task(task)
            return
        with self.lock:
            # Behind every request that goes first (their order kept) and every other one
            # passed for PASS_SECONDS already; ahead of the others, which queue in arrival order.
            ahead = len(self.queue)
            for queued in reversed(self.queue):
                if getattr(queued, "skat_first", False):
                    break
                if task.skat_queued - getattr(queued, "skat_queued", task.skat_queued) >= PASS_SECONDS:
                    break
                ahead -= 1
            self.queue.insert(ahead, task)
            self.queue_cv.notify()
            waiting = len(self.queue) - (len(self.threads) - self.stop_count - self.active_count)
            if waiting > 0:
                self.queue_logger.warning("Task queue depth is %d", waiting)
