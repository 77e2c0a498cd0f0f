"""The dashboard's "Play in background": only on a practice tournament, stoppable, never twice at once."""

from __future__ import annotations

import threading

import pytest
from django.urls import reverse

from rehearsal import background
from rehearsal.evening import Summary
from tests import factories
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def practice(client):
    director = factories.user("rehearsing")
    t = factories.tournament(directors=[director], practice=True)
    factories.registered(t, 8)
    client.force_login(director)
    return t


@pytest.fixture
def fake_evening(monkeypatch):
    """The evening a thread plays, made to wait until it is told to stop (no database in the thread)."""
    started = threading.Event()
    seen = {}

    def play(tournament, *, pace, stop, seed, log, tick):
        seen["pace"] = pace
        log("series 1: 2 tables")
        started.set()
        stop.wait(10)
        return Summary(stopped=stop.is_set())

    monkeypatch.setattr(background, "play", play)
    yield started, seen
    for run in background._runs.values():
        run.stop.set()
        run.done.wait(10)
    background._runs.clear()


def test_the_button_is_on_a_practice_tournaments_dashboard_only(client, practice):
    body = client.get(reverse("director:detail", args=[practice.pk])).content.decode()
    assert "Play in background" in body and reverse("director:rehearsal_start", args=[practice.pk]) in body
    Tournament.objects.filter(pk=practice.pk).update(practice=False)
    assert "Play in background" not in client.get(reverse("director:detail", args=[practice.pk])).content.decode()


def test_a_real_tournament_is_refused_and_nothing_starts(client, practice, fake_evening):
    Tournament.objects.filter(pk=practice.pk).update(practice=False)
    response = client.post(reverse("director:rehearsal_start", args=[practice.pk]), {"pace": "5"}, follow=True)
    assert "only a practice tournament is played in the background" in response.content.decode()
    assert background.current(practice.pk) is None


def test_start_once_refuse_twice_then_stop(client, practice, fake_evening):
    started, seen = fake_evening
    start = reverse("director:rehearsal_start", args=[practice.pk])
    response = client.post(start, {"pace": "2.5"}, follow=True)
    assert "The practice tables are playing" in response.content.decode()
    assert started.wait(10) and seen["pace"] == 2.5
    run = background.current(practice.pk)
    assert run.running
    # The dashboard shows it playing, with the way to stop it.
    page = client.get(reverse("director:detail", args=[practice.pk])).content.decode()
    assert "series 1: 2 tables" in page and reverse("director:rehearsal_stop", args=[practice.pk]) in page
    again = client.post(start, {"pace": "1"}, follow=True).content.decode()
    assert "being played already" in again and background.current(practice.pk) is run
    client.post(reverse("director:rehearsal_stop", args=[practice.pk]))
    assert run.done.wait(10) and run.summary.stopped and not run.running
    stopped = client.post(reverse("director:rehearsal_stop", args=[practice.pk]), follow=True).content.decode()
    assert "nothing is being played" in stopped


@pytest.mark.parametrize("pace", ["-1", "abc", "601", ""])
def test_a_bad_pace_is_refused_naming_the_field(client, practice, fake_evening, pace):
    response = client.post(reverse("director:rehearsal_start", args=[practice.pk]), {"pace": pace}, follow=True)
    assert "seconds per deal at each table:" in response.content.decode()
    assert background.current(practice.pk) is None


def test_a_run_of_another_process_shows_on_the_dashboard_with_its_stop(client, practice):
    """The dashboard's request served by a process that does not play it: the database's claim says it plays."""
    from rehearsal import claims
    from rehearsal.models import RehearsalClaim

    claims.claim(practice.pk)
    page = client.get(reverse("director:detail", args=[practice.pk])).content.decode()
    assert "started in another process of the office" in page
    assert reverse("director:rehearsal_stop", args=[practice.pk]) in page
    client.post(reverse("director:rehearsal_stop", args=[practice.pk]))
    assert RehearsalClaim.objects.get().stop_requested
    again = client.post(reverse("director:rehearsal_start", args=[practice.pk]), {"pace": "1"}, follow=True)
    assert "being played already" in again.content.decode()
