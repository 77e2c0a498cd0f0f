"""One practice run per tournament across all the office's processes.

A run claims its tournament by inserting a :class:`~rehearsal.models.RehearsalClaim`
(unique per tournament) in a transaction: of any number of starts at once, in any
process, one insert wins and the others are refused. While it plays, the run
refreshes the claim every :data:`HEARTBEAT` seconds and reads whether a stop was asked
(from any process); at the end the claim is deleted. A claim not refreshed for
:data:`STALE` seconds belongs to a process that died and is taken over by the next start.
A run whose claim was taken over (it hung longer than that) stops itself.
"""

from __future__ import annotations

import os
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta

from django.db import IntegrityError, transaction
from django.utils import timezone

from .models import RehearsalClaim

#: Seconds between two refreshes of a running claim.
HEARTBEAT = 5.0
#: Seconds without a refresh after which a claim is stale (its process is gone).
STALE = 60.0


class Busy(Exception):
    """The tournament is being played already (by ``holder``)."""

    def __init__(self, holder: str) -> None:
        super().__init__(holder)
        self.holder = holder


def holder_name() -> str:
    """This thread of this process on this machine: who holds a claim."""
    return f"{socket.gethostname()}:{os.getpid()}:{threading.get_ident()}"


def _fresh_since():
    return timezone.now() - timedelta(seconds=STALE)


def claim(tournament_id: int) -> RehearsalClaim:
    """Claim the tournament for this run, or raise :class:`Busy` if a live run has it."""
    now = timezone.now()
    holder = holder_name()
    with transaction.atomic():
        RehearsalClaim.objects.filter(tournament_id=tournament_id, heartbeat_at__lt=_fresh_since()).delete()
        try:
            with transaction.atomic():
                return RehearsalClaim.objects.create(
                    tournament_id=tournament_id, holder=holder, started_at=now, heartbeat_at=now
                )
        except IntegrityError:
            pass
    other = RehearsalClaim.objects.filter(tournament_id=tournament_id).values_list("holder", flat=True).first()
    raise Busy(other or "another run")


def beat(held: RehearsalClaim) -> bool:
    """Refresh the claim; False when the run should stop (a stop was asked, or the claim is no longer its own)."""
    mine = RehearsalClaim.objects.filter(pk=held.pk, holder=held.holder)
    if not mine.update(heartbeat_at=timezone.now()):
        return False
    return not mine.filter(stop_requested=True).exists()


def release(held: RehearsalClaim) -> None:
    """The run is over: the tournament may be played again at once."""
    RehearsalClaim.objects.filter(pk=held.pk, holder=held.holder).delete()


def running(tournament_id: int) -> RehearsalClaim | None:
    """The live claim on the tournament, from whichever process (None: nothing is played)."""
    return RehearsalClaim.objects.filter(tournament_id=tournament_id, heartbeat_at__gte=_fresh_since()).first()


def request_stop(tournament_id: int) -> bool:
    """Ask the tournament's run to stop, whichever process plays it; False if none is playing."""
    live = RehearsalClaim.objects.filter(tournament_id=tournament_id, heartbeat_at__gte=_fresh_since())
    return bool(live.update(stop_requested=True))


class Keeper:
    """Keeps a claim alive from the run's own thread: :meth:`tick` is called between deals
    and while waiting, and refreshes the claim at most every ``every`` seconds, setting
    ``stop`` when a stop was asked or the claim is lost. (The run's own thread and
    connection: a second writer thread would only wait for the run's transactions.)"""

    def __init__(self, claimed: RehearsalClaim, stop: threading.Event, every: float = HEARTBEAT) -> None:
        self.claimed, self.stop, self.every = claimed, stop, every
        self.last = time.monotonic()

    def tick(self) -> None:
        if time.monotonic() - self.last < self.every:
            return
        self.last = time.monotonic()
        if not beat(self.claimed):
            self.stop.set()


@contextmanager
def held(claimed: RehearsalClaim, stop: threading.Event, every: float = HEARTBEAT) -> Iterator[Keeper]:
    """The claim kept while the body plays (calling the keeper's ``tick``), released at the end
    (after an error too)."""
    try:
        yield Keeper(claimed, stop, every)
    finally:
        release(claimed)
