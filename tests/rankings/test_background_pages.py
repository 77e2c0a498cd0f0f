"""The ranking's pages while it is computed in the background: each shows the stored lines
with their time and says "being updated", none computes in the request; the first time
(no lines yet) the page says it is being computed and looks again by itself."""

from __future__ import annotations

import datetime
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from rankings import background, compute, services
from rankings.compute import in_memory as computed_in_memory
from rankings.models import Ranking, RankingLine, RankingTournament
from tests import factories
from tests.rankings.helpers import evening

pytestmark = pytest.mark.django_db


@pytest.fixture
def ranked():
    director = factories.user("chair")
    a, b, c, d = (factories.player(n, club="SC Herz") for n in ("Anna Alt", "Bert Bau", "Carl Cis", "Dora Dix"))
    ranking = Ranking.objects.create(name="Jahreswertung", season="2027", public=True)
    ranking.directors.add(director)
    t = evening("Evening 5", datetime.date(2027, 1, 5), {a: 2, b: 1, c: 0, d: 0}, directors=[director])
    services.add_tournament(ranking, t, director)
    return ranking


@pytest.fixture
def started(settings, monkeypatch, django_capture_on_commit_callbacks):
    """The office's way (background), with the computation forbidden in the request: the
    computations the pages ask for (after their commit) are listed instead of run."""
    settings.RANKINGS_COMPUTE = "background"

    def never(*args, **kwargs):
        raise AssertionError("a page computed the ranking in the request")

    for module, name in ((compute, "in_memory"), (background, "in_memory"), (compute, "compute_lines")):
        monkeypatch.setattr(module, name, never)
    asked: list[int] = []
    monkeypatch.setattr(background, "start", asked.append)
    real_get, real_post = Client.get, Client.post

    def committed(method):
        def request(self, *args, **kwargs):
            with django_capture_on_commit_callbacks(execute=True):
                return method(self, *args, **kwargs)

        return request

    monkeypatch.setattr(Client, "get", committed(real_get))
    monkeypatch.setattr(Client, "post", committed(real_post))
    return asked


def pages(ranking: Ranking, player_id: int) -> dict[str, str]:
    return {
        "staff": reverse("rankings:ranking", args=[ranking.pk]),
        "search": reverse("rankings:ranking", args=[ranking.pk]) + "?q=anna",
        "player": reverse("rankings:player", args=[ranking.pk, player_id]),
        "tournaments": reverse("rankings:tournaments", args=[ranking.pk]),
        "public": reverse("public:ranking", args=[ranking.pk]),
        "public search": reverse("public:ranking", args=[ranking.pk]) + "?q=bert",
        "public player": reverse("public:ranking_player", args=[ranking.pk, player_id]),
        "pdf": reverse("public:ranking_file", args=[ranking.pk, "pdf"]),
        "csv": reverse("rankings:file", args=[ranking.pk, "csv"]),
    }


def test_every_page_shows_the_stored_lines_and_being_updated_without_computing(client, ranked, started):
    Ranking.objects.filter(pk=ranked.pk).update(wanted=ranked.wanted + 1)  # a change waits
    anna = RankingLine.objects.get(ranking=ranked, category="", name="Anna Alt")
    client.force_login(ranked.directors.get())
    for name, url in pages(ranked, anna.player_id).items():
        response = client.get(url)
        assert response.status_code == 200, name
        if response["Content-Type"].startswith("text/html"):
            text = response.content.decode()
            assert "Being updated: this is the ranking as computed" in text, name
            assert 'http-equiv="refresh"' not in text, name  # the lines are there: no reload under a search
    assert started and set(started) == {ranked.pk}  # asked for, in the background
    assert "Anna Alt" in client.get(pages(ranked, anna.player_id)["search"]).content.decode()


def test_a_deal_of_a_tournament_being_played_computes_again_at_most_once_a_pause(client, ranked, started):
    """The ranking was computed just now; a deal of one of its evenings moves the results: the
    page says "being updated" and leaves the computation to a page after the pause."""
    from tests.rankings.test_background import take_back_a_win

    evening = RankingTournament.objects.filter(ranking=ranked).order_by("tournament__date").first().tournament
    take_back_a_win(evening, seat=1)
    public = reverse("public:ranking", args=[ranked.pk])
    assert "Being updated" in client.get(public).content.decode()
    assert started == []  # within the pause: the lines stay as they are, marked
    ended = timezone.now() - timedelta(seconds=background.RESULTS_PAUSE_SECONDS + 1)
    Ranking.objects.filter(pk=ranked.pk).update(computed_at=ended)
    client.get(public)
    assert started == [ranked.pk]


def test_a_change_to_the_ranking_itself_waiting_is_computed_without_a_pause(client, ranked, started):
    Ranking.objects.filter(pk=ranked.pk).update(wanted=ranked.wanted + 1)  # its thread never ran
    client.get(reverse("public:ranking", args=[ranked.pk]))
    assert started == [ranked.pk]


def test_a_fresh_ranking_says_nothing_of_updating_and_asks_for_nothing(client, ranked, started):
    response = client.get(reverse("public:ranking", args=[ranked.pk]))
    assert "Being updated" not in response.content.decode() and "Computed " in response.content.decode()
    assert started == []


def test_the_first_time_the_page_says_it_is_being_computed_and_looks_again(client, started):
    director = factories.user("chair")
    client.force_login(director)
    ranking = Ranking.objects.create(name="Neu", public=True, wanted=1)  # as its rules page saves it
    ranking.directors.add(director)
    for url in (reverse("rankings:ranking", args=[ranking.pk]), reverse("public:ranking", args=[ranking.pk])):
        text = client.get(url).content.decode()
        assert "The ranking is being computed: this page looks again every few seconds." in text
        assert '<meta http-equiv="refresh" content="5">' in text
    assert started == [ranking.pk, ranking.pk]


def test_the_note_in_german(client, ranked, started):
    Ranking.objects.filter(pk=ranked.pk).update(wanted=ranked.wanted + 1)
    text = client.get(reverse("public:ranking", args=[ranked.pk]), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Wird aktualisiert" in text


def test_a_live_claim_of_another_process_is_left_alone_an_expired_one_is_taken_over(client, ranked, started):
    later = timezone.now() + timedelta(minutes=1)
    Ranking.objects.filter(pk=ranked.pk).update(wanted=ranked.wanted + 1, claimed_by="other", claimed_until=later)
    url = reverse("public:ranking", args=[ranked.pk])
    assert "Being updated" in client.get(url).content.decode()
    assert started == []  # the other process computes it
    Ranking.objects.filter(pk=ranked.pk).update(claimed_until=timezone.now() - timedelta(seconds=1))
    client.get(url)
    assert started == [ranked.pk]  # its process was killed: this one computes


def test_the_recompute_button_asks_for_the_background_run(client, ranked, started):
    client.force_login(ranked.directors.get())
    response = client.post(reverse("rankings:refresh", args=[ranked.pk]), follow=True)
    assert started and set(started) == {ranked.pk}  # the post's, and the page's it lands on
    assert "computed, in the background" in response.content.decode()
    assert "Being updated" in response.content.decode()


def test_a_file_is_made_once_per_computation_and_says_being_updated(client, ranked, started, monkeypatch):
    from rankings import documents

    made = []
    real = documents.write_pdf
    monkeypatch.setattr(documents, "write_pdf", lambda *args: made.append(args[0].computed) or real(*args))
    url = reverse("public:ranking_file", args=[ranked.pk, "pdf"])
    first = client.get(url).content
    assert client.get(url).content == first and len(made) == 1  # kept: not made again
    Ranking.objects.filter(pk=ranked.pk).update(wanted=ranked.wanted + 1)
    client.get(url)
    assert len(made) == 2  # the note "being updated" is in it now
    monkeypatch.setattr(background, "in_memory", computed_in_memory)  # as the thread computes
    assert background.run(ranked.pk) == 1
    client.get(url)
    client.get(url)
    assert made == [ranked.computed, ranked.computed, ranked.wanted + 1]


def test_a_claim_of_a_process_of_this_machine_that_is_gone_is_taken_over_at_once(client, ranked, started):
    """The office restarted while it computed: its old process cannot compute any more, and
    the pages must not say "being updated" for minutes while nobody does."""
    import socket

    gone = 4_194_304 + 17  # above Linux's largest pid: no such process
    later = timezone.now() + timedelta(minutes=4)
    claim = f"{socket.gethostname()[:40]}:{gone}:1"
    Ranking.objects.filter(pk=ranked.pk).update(wanted=ranked.wanted + 1, claimed_by=claim, claimed_until=later)
    client.get(reverse("public:ranking", args=[ranked.pk]))
    assert started == [ranked.pk]
    assert background.claim(ranked.pk, "next")  # the dead claim no longer holds


def test_a_claim_of_a_live_process_here_or_of_another_machine_holds(client, ranked, started):
    import os
    import socket

    later = timezone.now() + timedelta(minutes=4)
    for claim in (f"{socket.gethostname()[:40]}:{os.getpid()}:1", f"elsewhere:{4_194_304 + 17}:1"):
        Ranking.objects.filter(pk=ranked.pk).update(wanted=ranked.wanted + 1, claimed_by=claim, claimed_until=later)
        client.get(reverse("public:ranking", args=[ranked.pk]))
        assert started == []
