"""The ranking computed in the background: a change asks for it, a daemon thread of the
process that made the change computes it, the pages show the stored lines meanwhile.

The office has no task queue (waitress or gunicorn in several processes, SQLite or
PostgreSQL), so the database says who computes: a claim on the ranking's row (who, until
when) taken by one atomic ``UPDATE ... WHERE`` that only one process can win. A change
counts itself into ``Ranking.wanted``; the computation stores the lines of the count it
started from (``computed``) and, when changes came in meanwhile, runs once more at the end
rather than once per change. A process killed while computing leaves a claim that runs
out after :data:`CLAIM_SECONDS` (at once where it was a process of this machine that is
gone: the office restarted); the next page that finds the lines stale starts anew.

``settings.RANKINGS_COMPUTE``: ``"background"`` (the office) or ``"at_once"``: a change
computes in the caller's thread and transaction, as the tests of other apps want their
lines at once. :func:`wait` joins the threads (the tests, the bench).
"""

from __future__ import annotations

import contextlib
import logging
import os
import socket
import threading
from datetime import timedelta

from django.conf import settings
from django.db import connection, transaction
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from .compute import in_memory, store
from .models import Ranking, RankingTournament
from .reading import moved, read_results, to_read

logger = logging.getLogger(__name__)

#: How long a claim holds without being renewed. It is renewed after each tournament read
#: and before the lines are written; the computation in between takes about 24 s at 200
#: tournaments x 3,000 players on the benchmarks' VM, a few times that on a slow laptop.
CLAIM_SECONDS = 300
#: The computing thread's nice value (Linux): below the requests it shares the CPU with.
NICE = 10

#: A tournament of the ranking that is being played moves its results with every deal: a
#: page shown meanwhile starts the computation again at most once per this many seconds
#: after the last one ended (the lines shown are at most that old, and say "being
#: updated"), so a hall's evening does not keep a serving process computing the ranking.
#: A change made to the ranking itself (rules, tournaments, decisions) computes at once.
RESULTS_PAUSE_SECONDS = 60

#: What a computation writes on the ranking's row.
COMPUTED = ["computed_at", "problem", "doubtful", "doubtful_pairs", "contradicted_pairs", "wanted", "computed"]

_lock = threading.Lock()
#: Rankings this process computes now, and whether a change came in meanwhile.
_running: dict[int, bool] = {}
_threads: list[threading.Thread] = []


def mode() -> str:
    return getattr(settings, "RANKINGS_COMPUTE", "background")


def claimant() -> str:
    """This process and thread, as a claim names them."""
    return f"{socket.gethostname()[:40]}:{os.getpid()}:{threading.get_ident()}"[:80]


def _gone(claimed_by: str) -> bool:
    """Whether a claim is of a process of this machine that no longer runs (Linux's /proc;
    elsewhere, and for another machine's claim, it holds until it runs out)."""
    host, _, rest = claimed_by.partition(":")
    pid = rest.partition(":")[0]
    if host != socket.gethostname()[:40] or not pid.isdigit() or not os.path.isdir("/proc/self"):
        return False
    return not os.path.exists(f"/proc/{pid}")


def _stale() -> Q:
    return Q(wanted__gt=F("computed"))


def claim(ranking_id: int, me: str) -> bool:
    """Take the ranking for ``me`` when its lines are stale and nobody else holds it (or
    their claim ran out): one UPDATE, so of two processes at once exactly one wins."""
    now = timezone.now()
    free = Q(claimed_by="") | Q(claimed_until__lt=now) | Q(claimed_until__isnull=True) | Q(claimed_by=me)
    until = now + timedelta(seconds=CLAIM_SECONDS)
    return bool(Ranking.objects.filter(_stale(), free, pk=ranking_id).update(claimed_by=me, claimed_until=until))


def renew(ranking_id: int, me: str) -> bool:
    """Hold the claim for another :data:`CLAIM_SECONDS`; False when it was taken over."""
    until = timezone.now() + timedelta(seconds=CLAIM_SECONDS)
    return bool(Ranking.objects.filter(pk=ranking_id, claimed_by=me).update(claimed_until=until))


def release(ranking_id: int, me: str) -> None:
    Ranking.objects.filter(pk=ranking_id, claimed_by=me).update(claimed_by="", claimed_until=None)


def changed(ranking: Ranking | int, *, read_again: bool = False) -> None:
    """A change the ranking's lines must follow (inside the change's transaction): counted
    now, computed once the change is committed. ``read_again``: every tournament's results
    are read anew first (the director's "read again")."""
    ranking_id = ranking if isinstance(ranking, int) else ranking.pk
    if read_again:
        RankingTournament.objects.filter(ranking_id=ranking_id).update(read_mark=None)
    Ranking.objects.filter(pk=ranking_id).update(wanted=F("wanted") + 1)
    if mode() == "at_once":
        run(ranking_id)
        if isinstance(ranking, Ranking):
            ranking.refresh_from_db(fields=COMPUTED)
    else:
        transaction.on_commit(lambda: start(ranking_id))


def seen(ranking: Ranking) -> None:
    """A page of the ranking is shown: results changed since they were read (a correction)
    count as a change; stale lines that nobody computes (a killed process's claim ran out)
    are computed. Costs one query, none of the computation."""
    results_moved = moved(ranking)
    if results_moved:
        Ranking.objects.filter(pk=ranking.pk).update(wanted=F("wanted") + 1)
        ranking.wanted += 1
    if not ranking.updating:
        return
    if ranking.claimed_by and ranking.claimed_until and ranking.claimed_until > timezone.now():
        if not _gone(ranking.claimed_by):
            return
        # The office restarted while it computed: that claim cannot be held by anyone any more.
        release(ranking.pk, ranking.claimed_by)
    if mode() == "at_once":
        run(ranking.pk)
        ranking.refresh_from_db(fields=COMPUTED)
    elif not (results_moved and paused(ranking)):
        transaction.on_commit(lambda: start(ranking.pk))


def paused(ranking: Ranking) -> bool:
    """Whether the last computation ended less than :data:`RESULTS_PAUSE_SECONDS` ago: a page
    that finds the results moved (a deal of a tournament being played) then leaves the
    computation to a later page."""
    ended = ranking.computed_at
    return ended is not None and timezone.now() - ended < timedelta(seconds=RESULTS_PAUSE_SECONDS)


def start(ranking_id: int) -> threading.Thread | None:
    """Compute the ranking in a daemon thread of this process; when one runs already, it
    computes once more at its end instead."""
    with _lock:
        if ranking_id in _running:
            _running[ranking_id] = True
            return None
        _running[ranking_id] = False
        thread = threading.Thread(target=_thread, args=(ranking_id,), name=f"ranking-{ranking_id}", daemon=True)
        _threads[:] = [*(t for t in _threads if t.is_alive()), thread]
    thread.start()
    return thread


def _lower_priority() -> None:
    """The computing thread gives way to the requests of its process when the CPU is
    short (Linux: a thread has its own nice value); elsewhere it runs as it is."""
    with contextlib.suppress(AttributeError, OSError):
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), NICE)


def _thread(ranking_id: int) -> None:
    _lower_priority()
    try:
        while True:
            run(ranking_id)
            with _lock:
                if not _running[ranking_id]:
                    del _running[ranking_id]
                    return
                _running[ranking_id] = False
    except Exception:
        logger.exception("the ranking %s could not be computed", ranking_id)
        failed(ranking_id)
        with _lock:
            _running.pop(ranking_id, None)
    finally:
        connection.close()


def failed(ranking_id: int) -> None:
    """A computation that raised (a defect; the log has it): the lines stay those last
    computed and the ranking says so. It counts as computed, so the pages that find it do
    not start it again, each for as long as the failure takes; the next change does."""
    with contextlib.suppress(Exception):  # the database may be what failed: the log says so
        Ranking.objects.filter(pk=ranking_id).update(
            computed=F("wanted"),
            problem=_(
                "an error stopped the computation (the office's log names it); the lines are those "
                "computed before. The next change to the ranking or its tournaments computes it again."
            )[:300],
        )


def computing() -> bool:
    """Whether a computation this process started still runs (the bench's figure)."""
    with _lock:
        return any(t.is_alive() for t in _threads)


def wait(timeout: float | None = 120) -> None:
    """Join every computation this process started (the tests, the bench)."""
    while True:
        with _lock:
            threads = [t for t in _threads if t.is_alive()]
            _threads[:] = threads
        if not threads:
            return
        for thread in threads:
            thread.join(timeout)
            if thread.is_alive():
                raise TimeoutError(f"{thread.name} still computes after {timeout} s")


def run(ranking_id: int) -> int:
    """Compute the ranking while it is stale and this thread holds its claim: how many
    times it computed (0: fresh, or another process computes it)."""
    me = claimant()
    runs = 0
    while claim(ranking_id, me):
        try:
            if not _compute_once(ranking_id, me):
                return runs
            runs += 1
        finally:
            release(ranking_id, me)
    return runs


def _compute_once(ranking_id: int, me: str) -> bool:
    """Read what changed, compute in memory, then write the lines in one short
    transaction, if the claim still holds (False: another took it over)."""
    ranking = Ranking.objects.get(pk=ranking_id)
    wanted = ranking.wanted
    for entry in to_read(ranking):
        read_results(entry)
        if not renew(ranking_id, me):
            return False
    result = in_memory(ranking)
    with transaction.atomic():
        if not Ranking.objects.filter(pk=ranking_id, claimed_by=me).update(computed=wanted):
            return False
        store(ranking, result)
    return True
