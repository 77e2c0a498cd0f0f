"""A rehearsal played in the background of the office's own process (the dashboard's button).

The rehearsal is one more thread in the office process that got the button's request,
playing through the same table links (:mod:`.evening`). ``serve`` runs several processes,
so "one rehearsal per tournament at a time" is the database's claim (:mod:`.claims`),
not this process's memory: of twelve starts at once in any processes one plays and the
others are told it is being played already; a stop reaches the run from any process. It
stops when its evening ends or when the director stops it (after the deal under way).
What it did is kept for the dashboard of this process until the next one starts; a
restart of the office ends the run, and its claim goes stale and is taken over.

The thread's phones are Django's test client (:class:`rehearsal.phones.InProcess`), which
unhooks ``close_old_connections`` from the request signals for the moment of each of its
requests; a hall request starting in that moment keeps its database connection one
request longer, which is harmless (a practice evening only).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field

from django.db import connections
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from core.rule_messages import rule_message
from skat.rules import RuleError
from tournaments.models import Tournament

from . import claims
from .evening import Summary, play


class RehearsalRefused(Exception):
    """A start or stop that cannot be done: the message names the rule."""


@dataclass
class Run:
    tournament_id: int
    pace: float
    stop: threading.Event = field(default_factory=threading.Event)
    done: threading.Event = field(default_factory=threading.Event)
    summary: Summary | None = None
    error: str = ""
    log: list[str] = field(default_factory=list)

    @property
    def running(self) -> bool:
        return not self.done.is_set()


#: The refusal of a second start, whichever process plays the first.
BEING_PLAYED = gettext_lazy("Rehearsal: this tournament is being played already; stop it first.")

_runs: dict[int, Run] = {}
_lock = threading.Lock()


def current(tournament_id: int) -> Run | None:
    """The tournament's rehearsal, running or the last one finished in this process."""
    return _runs.get(tournament_id)


def start(tournament: Tournament, pace: float, *, thread: Callable[..., threading.Thread] = threading.Thread) -> Run:
    """Start playing ``tournament`` (a practice one) at ``pace`` seconds per deal, in a thread of its own."""
    if not tournament.practice:
        raise RehearsalRefused(_("Tournament: only a practice tournament is played in the background (a rehearsal)."))
    try:
        claimed = claims.claim(tournament.pk)
    except claims.Busy:
        raise RehearsalRefused(BEING_PLAYED) from None
    with _lock:
        run = _runs[tournament.pk] = Run(tournament.pk, pace)
    try:
        thread(target=_play, args=(run, tournament, claimed), name=f"rehearsal-{tournament.pk}", daemon=True).start()
    except BaseException:
        claims.release(claimed)
        run.done.set()
        raise
    return run


def stop(tournament_id: int) -> Run | None:
    """Ask the tournament's rehearsal to stop after the deal under way, whichever process plays it
    (this process's run, or None when another process plays it)."""
    run = _runs.get(tournament_id)
    local = run is not None and run.running
    if not claims.request_stop(tournament_id) and not local:
        raise RehearsalRefused(_("Rehearsal: nothing is being played for this tournament."))
    if local:
        run.stop.set()
    return run if local else None


def elsewhere(tournament_id: int) -> bool:
    """The tournament is being played by another process of the office (the dashboard says so)."""
    run = _runs.get(tournament_id)
    return not (run is not None and run.running) and claims.running(tournament_id) is not None


def _play(run: Run, tournament: Tournament, claimed) -> None:
    try:
        with claims.held(claimed, run.stop) as keeper:
            run.summary = play(
                tournament, pace=run.pace, stop=run.stop, seed=run.tournament_id, log=run.log.append, tick=keeper.tick
            )
        if run.summary.unfinished:
            run.error = _(
                "The rehearsal stopped and left its series unfinished: deals are missing at tables %(tables)s."
            ) % {"tables": ", ".join(map(str, run.summary.unfinished))}
    except RuleError as refused:  # a series that cannot be drawn, said as the draw button says it
        run.error = rule_message(refused)
    except Exception as error:
        run.error = f"{type(error).__name__}: {error}"
    finally:
        connections.close_all()
        run.done.set()
