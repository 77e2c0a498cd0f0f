"""Entries first inside each serving process: waitress's queue of requests waiting for a thread.

waitress hands each parsed request to a queue its threads take from, first come first
served. In a burst (phones opening their table links at the start of a series, the
director printing) the phones' entries and the spectators' kept pages (config.admission,
a millisecond each) waited behind 24 KiB table pages and director pages in that queue:
in the hall profile their p99 was seconds while their own work is milliseconds (docs:
Benchmarks). This queue lets an entry (a POST to a table link, ``/s/``) and a public
page (``/p/``, mostly answered from the kept copy) pass the others, as do the static
files and a table link's hall check round trip (a ping measures the hall's Wi-Fi, not
the queue: tablelink.hall_views); an entry passes the spectators too (:func:`queue_rank`);
within each rank the order is kept, and nothing is ever dropped. Nothing waits for
ever either: once the oldest of the others has waited ``PASS_SECONDS``, no request
passes it any more (a
flood of spectators beyond the threads' pace would otherwise hold the director's pages
back as long as it lasts).

The queue alone is not enough: once a request has a thread, it shares the process's
interpreter lock with every other running one, so 1,500 phones opening their table links
at the start of a series (11 ms of Python each) made an entry's 10 ms of work take
100-500 ms. So at most ``OTHERS_AT_ONCE`` of the other requests run at a time in a
process (``SERVE_OTHERS_AT_ONCE``); the rest wait in the queue, holding no thread, while
entries and spectators take the threads left. Under a flood beyond the machine's pace
(three times the hall: 4,500 phones opening their links at once) that queue would grow
past the phones' patience, each page computed for a phone that has given up and asks
again; so a page asked for (GET or HEAD) that waited ``SHED_SECONDS`` for its turn is
answered "busy, again in N s" (503, reloading by itself) instead (:class:`ShedStale`). A
form sent (POST) is never dropped, and entries and spectators never wait that long.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable, Iterable

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext as _
from waitress.task import ThreadedTaskDispatcher

from config.access import answered_here
from config.admission import SPECTATOR_PREFIX, busy_answer, language_of

logger = logging.getLogger("office.serve")

#: How long a request that does not go first may be passed by those that do.
PASS_SECONDS = 2.0

#: A page that does not go first and waited this long for a thread is told "busy" instead.
SHED_SECONDS = 3.0

#: The queue's depth is logged at most once per this many seconds (the most seen since).
DEPTH_LOG_SECONDS = 10

#: What the thread now serving a task knows of it: ``stale``, a task that waited SHED_SECONDS.
serving = threading.local()

#: The table links' pages (a POST there is an entry); the spectators' are config.admission's SPECTATOR_PREFIX.
TABLE_PREFIX = "/s/"
#: The health check (config.health): a monitor or a container engine asking whether the
#: office answers must not be told "busy" by a flood and restart a server that only works hard.
HEALTH_PATH = "/healthz"
#: The static files (whitenoise: a millisecond each) the phones' pages need to show.
STATIC_PREFIX = "/static/"
#: A table link's hall check round trip (tablelink.hall_views.ping: one small query), which
#: measures the hall's Wi-Fi: waiting its turn behind the pages, it would measure the queue.
PING_SUFFIX = "/ping/"


def others_at_once() -> int:
    """How many requests that do not go first may run at once in one process (at least 1)."""
    value = os.environ.get("SERVE_OTHERS_AT_ONCE", "").strip()
    # ASCII digits: "²" passes isdigit() but int() refuses it, a traceback at the start.
    if value.isascii() and value.isdigit() and len(value) <= 9 and int(value) >= 1:
        return int(value)
    if value:
        logger.warning("SERVE_OTHERS_AT_ONCE=%r is not a whole number of at least 1: 2 are used", value[:40])
    return 2


#: The order waitress's threads take queued requests in (:func:`queue_rank`): the phones' own
#: first, then the spectators and static files, then every other request.
ENTRY, SPECTATOR, OTHER = 0, 1, 2


def queue_rank(task: object) -> int:
    """Which queued requests a request passes (it passes those of a higher rank):

    - ENTRY: a table link's POST (a deal entered), its hall check round trip, the health check;
    - SPECTATOR: a public page (mostly the kept copy, config.admission), a static file;
    - OTHER: the rest (a table link opened, the director's pages).

    Entries pass the spectators too: at three times the hall the spectators' kept pages,
    a millisecond each but 270 a second, stood in the queue in front of the entries
    (docs: Benchmarks), which the issue forbids.

    The task is waitress's channel (a connection); the request it serves next is the first
    of its ``requests``. Its ``request`` is the one still being read: the same while the
    first is handed over, another (or None) when the channel queues itself again for a
    pipelined request."""
    requests = getattr(task, "requests", None)
    request = requests[0] if requests else getattr(task, "request", None)
    path = getattr(request, "path", None) or ""
    if path == HEALTH_PATH:
        return ENTRY
    if path.startswith((SPECTATOR_PREFIX, STATIC_PREFIX)):
        return SPECTATOR
    if not path.startswith(TABLE_PREFIX):
        return OTHER
    command = getattr(request, "command", "")
    if command == "POST" or (command in ("GET", "HEAD") and path.endswith(PING_SUFFIX)):
        return ENTRY
    return OTHER


class EntriesFirst(ThreadedTaskDispatcher):
    """waitress's dispatcher, with entries and spectators ahead of every other waiting
    request, and at most ``others`` of the other requests running at once."""

    def __init__(self, others: int | None = None) -> None:
        super().__init__()
        self.others = others if others is not None else others_at_once()
        self.others_running = 0
        self.deepest = 0  # the most requests seen waiting since the depth was last logged
        self.depth_told = float("-inf")

    def take(self):
        """The task a free thread serves next (called under the lock), or None: the queue's
        first, unless that one is another request and ``others`` of them run already; then
        the first that goes first."""
        if not self.queue:
            return None
        if self.others_running < self.others or getattr(self.queue[0], "skat_first", True):
            task = self.queue.popleft()
        else:
            task = next((queued for queued in self.queue if getattr(queued, "skat_first", True)), None)
            if task is None:
                return None
            self.queue.remove(task)
        if not getattr(task, "skat_first", True):
            self.others_running += 1
        return task

    def handler_thread(self, thread_no: int) -> None:
        """waitress's thread loop (waitress.task.ThreadedTaskDispatcher), taking its tasks by :meth:`take`."""
        while True:
            with self.lock:
                while self.stop_count == 0 and (task := self.take()) is None:
                    self.active_count -= 1  # idle while it waits, as waitress counts
                    self.queue_cv.wait()
                    self.active_count += 1
                if self.stop_count > 0:
                    self.active_count -= 1
                    self.stop_count -= 1
                    self.threads.discard(thread_no)
                    self.thread_exit_cv.notify()
                    break
                # Read as take() counted them: the task is waitress's channel, which queues
                # itself again for its next request (add_task rewrites both) before service() returns.
                other = not getattr(task, "skat_first", True)
                queued = getattr(task, "skat_queued", None)
            serving.stale = other and queued is not None and time.monotonic() - queued >= SHED_SECONDS
            try:
                task.service()
            except BaseException:
                self.logger.exception("Exception when servicing %r", task)
            finally:
                serving.stale = False
                if other:
                    with self.lock:
                        self.others_running -= 1
                        self.queue_cv.notify()  # a waiting other may run now

    def add_task(self, task) -> None:
        order = queue_rank(task)
        task.skat_rank = order
        task.skat_first = order < OTHER
        task.skat_queued = time.monotonic()
        with self.lock:
            # Behind every request of its rank or a lower one (their order kept) and every
            # other request passed for PASS_SECONDS already; ahead of the rest.
            ahead = len(self.queue)
            for queued in reversed(self.queue):
                queued_rank = getattr(queued, "skat_rank", OTHER)
                if queued_rank <= order:
                    break
                if queued_rank == OTHER and task.skat_queued - getattr(queued, "skat_queued", 0) >= PASS_SECONDS:
                    break
                ahead -= 1
            self.queue.insert(ahead, task)
            self.queue_cv.notify()
            self._tell_depth(len(self.queue) - (len(self.threads) - self.stop_count - self.active_count))

    def _tell_depth(self, waiting: int) -> None:
        """Log how many requests wait for a thread, at most once per DEPTH_LOG_SECONDS, with the
        most seen since the line before and how long ago that was (called under the lock).
        waitress logs it on every request queued: under a flood, formatting and writing that
        line was a tenth of the serving thread's work. A burst that comes and goes within
        the ten seconds is told with the next line, which may come much later: it says so."""
        if waiting <= 0:
            return
        self.deepest = max(self.deepest, waiting)
        now = time.monotonic()
        since = now - self.depth_told
        if since < DEPTH_LOG_SECONDS:
            return
        if since == float("inf"):  # the first line
            self.queue_logger.warning("Task queue depth is %d", waiting)
        else:
            self.queue_logger.warning(
                "Task queue depth is %d (the most since the line before, %.0f s ago: %d)", waiting, since, self.deepest
            )
        self.depth_told, self.deepest = now, 0


class ShedStale:
    """WSGI wrapper: the first request of a task the dispatcher took after SHED_SECONDS in
    its queue, a GET or HEAD, is answered "busy, again in N s" without Django (the page
    reloads itself; a table link's phone then finds its sheet as it is)."""

    def __init__(self, app: Callable) -> None:
        self.app = app

    def __call__(self, environ: dict, start_response: Callable) -> Iterable[bytes]:
        stale, serving.stale = getattr(serving, "stale", False), False  # a pipelined next one is not judged
        if not stale or environ.get("REQUEST_METHOD") not in ("GET", "HEAD"):
            return self.app(environ, start_response)
        language = language_of(environ)
        with translation.override(language):
            text = _("Many phones are asking at once. The page loads again in %(seconds)s seconds.")
        body = busy_answer(answered_here(environ, start_response), language, settings.BUSY_RETRY_AFTER, text)
        return [b""] if environ["REQUEST_METHOD"] == "HEAD" else body
