"""One practice run per tournament across every process: the database's claim, not memory.

Real threads on the real database (SQLite here, PostgreSQL in CI): each thread has its own
connection, as each of ``serve``'s processes has.
"""

from __future__ import annotations

import io
import threading
from datetime import timedelta

import pytest
from django.core.management import CommandError, call_command
from django.utils import timezone

from rehearsal import background, claims, evening
from rehearsal.copies import new_practice
from rehearsal.models import RehearsalClaim
from scoring.models import Game
from tests import factories
from tests.threads import in_parallel
from tournaments.models import Series

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def practice():
    """Twelve made-up players, two series of one round: three tables of four deals each a series."""
    return new_practice(12, series_count=2, rounds=1)


@pytest.fixture(autouse=True)
def no_runs_left():
    yield
    for run in background._runs.values():
        run.stop.set()
        run.done.wait(60)
    background._runs.clear()


class ProcessMemory:
    """``background``'s memory of its runs as if each thread were a process of its own."""

    def __init__(self) -> None:
        self.local = threading.local()
        self.every: list[background.Run] = []

    def _mine(self) -> dict:
        if not hasattr(self.local, "runs"):
            self.local.runs = {}
        return self.local.runs

    def get(self, key, default=None):
        return self._mine().get(key, default)

    def __setitem__(self, key, run) -> None:
        self._mine()[key] = run
        self.every.append(run)

    def values(self) -> list[background.Run]:
        return list(self.every)

    def clear(self) -> None:
        self.every.clear()


def test_twelve_starts_at_once_in_twelve_processes_play_one_run_and_every_deal(practice, monkeypatch):
    memory = ProcessMemory()
    monkeypatch.setattr(background, "_runs", memory)

    def start(index: int):
        try:
            return background.start(practice, 0)
        except background.RehearsalRefused as refused:
            return str(refused)

    answers = in_parallel(start, 12)
    assert all(run.done.wait(120) for run in memory.every)
    runs = [a for a in answers if isinstance(a, background.Run)]
    assert len(runs) == len(memory.every) == 1
    assert sorted({a for a in answers if isinstance(a, str)}) == [str(background.BEING_PLAYED)]
    assert runs[0].error == ""
    assert list(practice.series.values_list("number", "status")) == [(1, "finished"), (2, "finished")]
    # Each series: three tables of four, four deals each, stored once.
    assert Game.objects.filter(table__series__tournament=practice).count() == 2 * 3 * 4
    assert not RehearsalClaim.objects.exists(), "the claim is released at the end"


def test_the_claim_refuses_a_second_run_in_any_process_until_released(practice):
    first = claims.claim(practice.pk)
    results = in_parallel(lambda i: _claim_or_busy(practice.pk), 6)
    assert results == ["busy"] * 6
    claims.release(first)
    assert isinstance(claims.claim(practice.pk), RehearsalClaim)


def _claim_or_busy(tournament_id: int):
    try:
        return claims.claim(tournament_id)
    except claims.Busy:
        return "busy"


def test_a_claim_whose_process_died_is_taken_over_and_its_run_stops(practice):
    dead = claims.claim(practice.pk)
    RehearsalClaim.objects.filter(pk=dead.pk).update(heartbeat_at=timezone.now() - timedelta(seconds=claims.STALE + 1))
    assert claims.running(practice.pk) is None
    taken = in_parallel(lambda i: claims.claim(practice.pk), 1)[0]
    assert taken.holder != dead.holder
    # Were the old run still alive, its next heartbeat tells it to stop; its release leaves the new claim.
    stop = threading.Event()
    claims.Keeper(dead, stop, every=0).tick()
    assert stop.is_set()
    claims.release(dead)
    assert RehearsalClaim.objects.get().pk == taken.pk


def test_a_fresh_claim_is_never_taken_over(practice):
    held = claims.claim(practice.pk)
    RehearsalClaim.objects.filter(pk=held.pk).update(heartbeat_at=timezone.now() - timedelta(seconds=claims.STALE - 5))
    with pytest.raises(claims.Busy):
        claims.claim(practice.pk)


def test_a_stop_from_another_process_reaches_the_run(practice):
    held = claims.claim(practice.pk)
    stop = threading.Event()
    keeper = claims.Keeper(held, stop, every=0)
    keeper.tick()
    assert not stop.is_set()
    # The stop button's request served by another process: no run in its memory.
    assert background.stop(practice.pk) is None
    keeper.tick()
    assert stop.is_set()


def test_stop_with_nothing_played_is_refused(practice):
    with pytest.raises(background.RehearsalRefused, match="nothing is being played"):
        background.stop(practice.pk)


def test_the_command_refuses_a_tournament_being_played(practice):
    claims.claim(practice.pk)
    with pytest.raises(CommandError, match=f"tournament {practice.pk} is being played already"):
        call_command("rehearse", "--practice", str(practice.pk), stdout=io.StringIO())
    assert not practice.series.exists()


def test_a_run_never_finishes_a_series_with_deals_missing(practice, monkeypatch):
    """A table that got no deals (refused, or played by a run that lost its claim): the series stays open."""
    played = []

    def half(series, *args):
        table = series.tables.order_by("number").first()
        factories.game(table, 1, declarer_seat=2, contract="grand", tops=1, declarer_points=75)
        played.append(series.number)

    monkeypatch.setattr(evening, "_play_series", half)
    lines = []
    summary = evening.play(practice, log=lines.append)
    assert played == [1] and summary.series == [] and summary.unfinished == [1, 2, 3]
    assert practice.series.get().status != Series.Status.FINISHED
    assert "deals missing at tables 1, 2, 3" in summary.lines()[0]
    assert any("series 1 not finished" in line for line in lines)


def test_the_dashboard_says_when_a_run_left_its_series_unfinished(practice, monkeypatch):
    def nothing(series, *args):
        return None

    monkeypatch.setattr(evening, "_play_series", nothing)
    run = background.start(practice, 0)
    assert run.done.wait(60)
    assert run.error == ("The rehearsal stopped and left its series unfinished: deals are missing at tables 1, 2, 3.")
    assert practice.series.get().status != Series.Status.FINISHED
