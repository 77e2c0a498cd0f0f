"""A rehearsal played in the background of the office's own process (the dashboard's button).

``skat-office serve`` runs the office in one process (waitress's threads): the rehearsal is
one more thread there, playing through the same table links (:mod:`.evening`). One
rehearsal per tournament at a time; it stops when its evening ends or when the director
stops it (after the deal under way). What it did is kept for the dashboard until the
next one starts. The state lives in this process only: a restart of the office ends it.

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

from core.rule_messages import rule_message
from skat.rules import RuleError
from tournaments.models import Tournament

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


_runs: dict[int, Run] = {}
_lock = threading.Lock()


def current(tournament_id: int) -> Run | None:
    """The tournament's rehearsal, running or the last one finished in this process."""
    return _runs.get(tournament_id)


def start(tournament: Tournament, pace: float, *, thread: Callable[..., threading.Thread] = threading.Thread) -> Run:
    """Start playing ``tournament`` (a practice one) at ``pace`` seconds per deal, in a thread of its own."""
    if not tournament.practice:
        raise RehearsalRefused(_("Tournament: only a practice tournament is played in the background (a rehearsal)."))
    with _lock:
        running = _runs.get(tournament.pk)
        if running is not None and running.running:
            raise RehearsalRefused(_("Rehearsal: this tournament is being played already; stop it first."))
        run = _runs[tournament.pk] = Run(tournament.pk, pace)
    thread(target=_play, args=(run, tournament), name=f"rehearsal-{tournament.pk}", daemon=True).start()
    return run


def stop(tournament_id: int) -> Run:
    """Ask the tournament's rehearsal to stop after the deal under way."""
    run = _runs.get(tournament_id)
    if run is None or not run.running:
        raise RehearsalRefused(_("Rehearsal: nothing is being played for this tournament."))
    run.stop.set()
    return run


def _play(run: Run, tournament: Tournament) -> None:
    try:
        run.summary = play(tournament, pace=run.pace, stop=run.stop, seed=run.tournament_id, log=run.log.append)
    except RuleError as refused:  # a series that cannot be drawn, said as the draw button says it
        run.error = rule_message(refused)
    except Exception as error:
        run.error = f"{type(error).__name__}: {error}"
    finally:
        connections.close_all()
        run.done.set()
