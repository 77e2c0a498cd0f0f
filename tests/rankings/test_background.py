"""The ranking computed in the background (rankings/background.py, reading.py, signals.py):
what makes it stale, the claim that lets one process compute it at a time, the thread
that computes it and writes the same lines the synchronous computation does."""

from __future__ import annotations

import datetime
from datetime import timedelta

import pytest
from django.utils import timezone

from perf.ranking import build_ranking
from rankings import background, people, services
from rankings.compute import compute_lines
from rankings.models import Ranking, RankingLine, RankingTournament
from scoring.models import Game
from tests import factories
from tests.rankings.helpers import WIN, evening

pytestmark = pytest.mark.django_db


@pytest.fixture
def in_background(settings):
    """The office's way: a change asks for a computation after its commit."""
    settings.RANKINGS_COMPUTE = "background"
    yield
    background.wait()


@pytest.fixture
def ranked():
    """A ranking of two evenings, computed (at once, as the other apps' tests compute)."""
    director = factories.user("chair")
    a, b, c, d = (factories.player(n, club="SC Herz") for n in ("Anna Alt", "Bert Bau", "Carl Cis", "Dora Dix"))
    ranking = Ranking.objects.create(name="Jahreswertung", season="2027")
    ranking.directors.add(director)
    for day, wins in ((5, {a: 2, b: 1, c: 0, d: 0}), (12, {a: 0, b: 3, c: 0, d: 0})):
        t = evening(f"Evening {day}", datetime.date(2027, 1, day), wins, directors=[director])
        services.add_tournament(ranking, t, director)
    ranking.refresh_from_db()
    assert not ranking.updating
    return ranking


def wanted(ranking: Ranking) -> int:
    return Ranking.objects.get(pk=ranking.pk).wanted


def values(ranking: Ranking) -> dict[str, str]:
    return dict(RankingLine.objects.filter(ranking=ranking, category="").values_list("name", "value"))


# What makes a ranking stale: each change counts, and asks for a run after its commit.


def test_a_tournament_added_counts_as_a_change_computed_after_the_commit(
    ranked, in_background, django_capture_on_commit_callbacks, monkeypatch
):
    """Its results are read in the background too (about a second at 3,000 players): the
    request only counts who sat where."""

    def never(entry):
        raise AssertionError("the results were read in the request")

    monkeypatch.setattr(background, "read_results", never)
    monkeypatch.setattr(services, "read_results", never)
    before = wanted(ranked)
    e = factories.player("Emil Eck", club="SC Herz")
    players = list(RankingLine.objects.filter(ranking=ranked, category="").values_list("player", flat=True))
    director = ranked.directors.get()
    others = [factories.player(name, club="TuS Pik") for name in ("Fritz Fux", "Gerd Gans", "Hans Hut")]
    t = evening("Evening 19", datetime.date(2027, 1, 19), {e: 1, **dict.fromkeys(others, 0)})
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        added = services.add_tournament(ranked, t, director)
    assert added.players == 4 and added.entry.held == [1] and added.entry.read_mark is None
    assert wanted(ranked) == before + 1 and len(callbacks) == 1
    assert RankingLine.objects.filter(ranking=ranked, category="").count() == len(players)  # not computed yet
    assert Ranking.objects.get(pk=ranked.pk).updating


def test_a_tournament_taken_out_counts_as_a_change(ranked, in_background, django_capture_on_commit_callbacks):
    before = wanted(ranked)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        services.remove_tournament(RankingTournament.objects.filter(ranking=ranked).first())
    assert wanted(ranked) == before + 1 and callbacks


def test_a_tournament_renamed_or_moved_counts_but_another_field_saved_does_not(
    ranked, in_background, django_capture_on_commit_callbacks
):
    t = RankingTournament.objects.filter(ranking=ranked).first().tournament
    before = wanted(ranked)
    with django_capture_on_commit_callbacks(execute=False):
        t.date = datetime.date(2027, 3, 1)
        t.save()
    assert wanted(ranked) == before + 1
    with django_capture_on_commit_callbacks(execute=False):
        t.venue = "Vereinsheim"
        t.save(update_fields=["venue"])
    assert wanted(ranked) == before + 1


def test_a_tournament_deleted_counts_as_a_change_for_its_rankings(
    ranked, in_background, django_capture_on_commit_callbacks
):
    before = wanted(ranked)
    with django_capture_on_commit_callbacks(execute=False):
        RankingTournament.objects.filter(ranking=ranked).first().tournament.delete()
    assert wanted(ranked) == before + 1


def test_a_decision_and_its_undoing_count_as_changes(ranked, in_background, django_capture_on_commit_callbacks):
    a, b = (line.player for line in RankingLine.objects.filter(ranking=ranked, category="").order_by("name")[:2])
    director = ranked.directors.get()
    before = wanted(ranked)
    with django_capture_on_commit_callbacks(execute=False):
        decision = people.decide(ranked, a, b, director, "two people", same=False)
    assert wanted(ranked) == before + 1
    with django_capture_on_commit_callbacks(execute=False):
        people.undo(decision, director)
    assert wanted(ranked) == before + 2


def test_rules_saved_count_as_a_change(client, ranked, in_background, django_capture_on_commit_callbacks):
    client.force_login(ranked.directors.get())
    data = {"name": "Jahreswertung", "counts": "rating", "unit": "tournament", "aggregate": "sum", "minimum": "1"}
    data |= {"penalty": "0", "points-TOTAL_FORMS": "0", "points-INITIAL_FORMS": "0"}
    before = wanted(ranked)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        response = client.post(f"/rankings/{ranked.pk}/rules/", data)
    assert response.status_code == 302 and wanted(ranked) == before + 1 and callbacks


def test_read_again_asks_for_every_tournament_to_be_read_in_the_background(
    ranked, in_background, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        assert services.refresh(ranked) == 2
    assert not RankingTournament.objects.filter(ranking=ranked, read_mark__isnull=False).exists()
    assert callbacks and Ranking.objects.get(pk=ranked.pk).updating


def test_a_correction_moves_the_results_mark_and_the_next_page_has_it_read_again(ranked):
    """Anna's second win on the 5th is taken back (the deal passed out): 196 becomes 98."""
    assert values(ranked)["Anna Alt"] == str(2 * WIN)
    entry = RankingTournament.objects.filter(ranking=ranked).order_by("tournament__date").first()
    game = Game.objects.filter(table__series__tournament=entry.tournament, declarer_seat=1).order_by("number").last()
    table, number = game.table, game.number
    game.delete()
    factories.game(table, number, passed_out=True)
    ranking = Ranking.objects.get(pk=ranked.pk)
    background.seen(ranking)  # at once in tests: reads the evening again and computes
    assert values(ranked)["Anna Alt"] == str(WIN)
    before = wanted(ranked)
    background.seen(Ranking.objects.get(pk=ranked.pk))
    assert wanted(ranked) == before  # nothing moved since: no change counted


# The claim: one process computes a ranking at a time.


def test_of_two_claimants_one_wins_and_a_fresh_ranking_is_not_claimed(ranked):
    assert not background.claim(ranked.pk, "a")  # fresh: nothing to compute
    Ranking.objects.filter(pk=ranked.pk).update(wanted=ranked.wanted + 1)
    assert background.claim(ranked.pk, "a")
    assert not background.claim(ranked.pk, "b")
    background.release(ranked.pk, "b")  # not b's to release
    assert Ranking.objects.get(pk=ranked.pk).claimed_by == "a"
    background.release(ranked.pk, "a")
    assert background.claim(ranked.pk, "b")


def test_an_expired_claim_is_taken_over_and_its_owner_writes_nothing(ranked):
    Ranking.objects.filter(pk=ranked.pk).update(wanted=ranked.wanted + 1)
    assert background.claim(ranked.pk, "killed")
    Ranking.objects.filter(pk=ranked.pk).update(claimed_until=timezone.now() - timedelta(seconds=1))
    assert background.claim(ranked.pk, "next")
    assert not background.renew(ranked.pk, "killed")
    assert background.run(ranked.pk) == 0  # "next" holds it, and its claim holds
    Ranking.objects.filter(pk=ranked.pk).update(claimed_until=timezone.now() - timedelta(seconds=1))
    assert background.run(ranked.pk) == 1
    ranking = Ranking.objects.get(pk=ranked.pk)
    assert ranking.computed == ranking.wanted and ranking.claimed_by == ""


def test_changes_during_a_computation_run_it_once_more_at_the_end(ranked, monkeypatch):
    calls = []
    real = background.in_memory

    def changing(ranking):
        calls.append(ranking.wanted)
        if len(calls) == 1:  # three changes come in while the first computation runs
            Ranking.objects.filter(pk=ranking.pk).update(wanted=ranking.wanted + 3)
        return real(ranking)

    monkeypatch.setattr(background, "in_memory", changing)
    Ranking.objects.filter(pk=ranked.pk).update(wanted=ranked.wanted + 1)
    assert background.run(ranked.pk) == 2
    assert calls == [ranked.wanted + 1, ranked.wanted + 4]
    ranking = Ranking.objects.get(pk=ranked.pk)
    assert ranking.computed == ranking.wanted == ranked.wanted + 4


# The thread: the same lines as the synchronous computation.


def lines_of(ranking: Ranking) -> list[tuple]:
    fields = [f.name for f in RankingLine._meta.fields if f.name not in ("id", "ranking")]
    return list(RankingLine.objects.filter(ranking=ranking).order_by("category", "position").values_list(*fields))


@pytest.mark.django_db(transaction=True)
def test_the_background_thread_writes_the_lines_the_synchronous_computation_did(settings):
    settings.RANKINGS_COMPUTE = "background"
    ranking = build_ranking(factories.user("chair"), tournaments=6, players=60, per_tournament=30, log=lambda _: None)
    synchronous = lines_of(ranking)
    assert len(synchronous) > 60 and {line[0] for line in synchronous} == {"", "Damen"}
    RankingLine.objects.filter(ranking=ranking).delete()
    background.changed(ranking)  # outside a transaction: started at once, in a thread
    background.wait()
    assert lines_of(ranking) == synchronous
    ranking.refresh_from_db()
    assert ranking.computed == ranking.wanted and not ranking.updating and ranking.claimed_by == ""
    assert compute_lines(ranking) == "" and lines_of(ranking) == synchronous


@pytest.mark.django_db(transaction=True)
def test_a_second_start_while_one_computes_runs_once_more_in_the_same_thread(settings, monkeypatch):
    settings.RANKINGS_COMPUTE = "background"
    ranking = build_ranking(factories.user("chair"), tournaments=3, players=40, per_tournament=20, log=lambda _: None)
    import threading

    inside, go_on = threading.Event(), threading.Event()
    real = background.in_memory

    def slow(r):
        inside.set()
        go_on.wait(30)
        return real(r)

    monkeypatch.setattr(background, "in_memory", slow)
    Ranking.objects.filter(pk=ranking.pk).update(wanted=1)
    first = background.start(ranking.pk)
    assert inside.wait(30)
    Ranking.objects.filter(pk=ranking.pk).update(wanted=2)
    assert background.start(ranking.pk) is None  # the running thread takes it
    go_on.set()
    background.wait()
    assert not first.is_alive()
    ranking.refresh_from_db()
    assert ranking.computed == ranking.wanted == 2


@pytest.mark.django_db(transaction=True)
def test_a_computation_that_raises_keeps_the_lines_says_so_and_is_not_started_by_every_page(settings, monkeypatch):
    settings.RANKINGS_COMPUTE = "background"
    ranking = build_ranking(factories.user("chair"), tournaments=3, players=40, per_tournament=20, log=lambda _: None)
    before = lines_of(ranking)
    calls = []

    def broken(r):
        calls.append(r.pk)
        raise RuntimeError("a defect")

    monkeypatch.setattr(background, "in_memory", broken)
    background.changed(ranking)  # outside a transaction: started at once, in a thread
    background.wait()
    ranking.refresh_from_db()
    assert calls == [ranking.pk]
    assert not ranking.updating and ranking.claimed_by == ""
    assert ranking.problem.startswith("an error stopped the computation")
    assert lines_of(ranking) == before  # the lines computed before stay shown
    for _ in range(3):  # pages that find it: none starts the failing computation again
        background.seen(ranking)
    background.wait()
    assert calls == [ranking.pk]
    monkeypatch.undo()
    background.changed(ranking)  # the next change computes it again, and it clears the problem
    background.wait()
    ranking.refresh_from_db()
    assert ranking.problem == "" and not ranking.updating and lines_of(ranking) == before


@pytest.mark.django_db(transaction=True)
def test_a_tournament_added_is_read_and_ranked_by_the_thread(settings):
    settings.RANKINGS_COMPUTE = "background"
    director = factories.user("chair")
    a, b, c, d = (factories.player(n, club="SC Herz") for n in ("Anna Alt", "Bert Bau", "Carl Cis", "Dora Dix"))
    t = evening("Evening 5", datetime.date(2027, 1, 5), {a: 2, b: 1, c: 0, d: 0}, directors=[director])
    ranking = Ranking.objects.create(name="Jahreswertung")
    services.add_tournament(ranking, t, director)
    background.wait()
    assert values(ranking) == {"Anna Alt": str(2 * WIN), "Bert Bau": str(WIN), "Carl Cis": "0", "Dora Dix": "0"}
    entry = RankingTournament.objects.get(ranking=ranking)
    assert entry.read_at is not None and entry.read_mark is not None and entry.held == [1]


def take_back_a_win(tournament, seat: int) -> None:
    """The last deal the player at ``seat`` won on that evening is passed out after all."""
    game = Game.objects.filter(table__series__tournament=tournament, declarer_seat=seat).order_by("number").last()
    table, number = game.table, game.number
    game.delete()
    factories.game(table, number, passed_out=True)


def test_a_correction_while_a_tournament_is_read_has_it_read_again_at_the_next_page(ranked, monkeypatch):
    """Anna's second win on the 5th is taken back; while that evening is read again, Bert's win
    there is taken back too (after the mark was read): the next page reads it once more."""
    from rankings import reading

    entry = RankingTournament.objects.filter(ranking=ranked).order_by("tournament__date").first()
    take_back_a_win(entry.tournament, seat=1)
    real, calls = reading.standings, []

    def meanwhile(tournament, *args):
        if not calls and tournament == entry.tournament:
            take_back_a_win(entry.tournament, seat=2)
        calls.append(tournament)
        return real(tournament, *args)

    monkeypatch.setattr(reading, "standings", meanwhile)
    background.seen(Ranking.objects.get(pk=ranked.pk))  # at once in tests
    assert values(ranked)["Anna Alt"] == str(WIN)
    ranking = Ranking.objects.get(pk=ranked.pk)
    background.seen(ranking)
    assert values(ranked)["Bert Bau"] == str(3 * WIN)  # 0 on the 5th, 3 wins on the 12th
    assert values(ranked)["Anna Alt"] == str(WIN)
    background.seen(Ranking.objects.get(pk=ranked.pk))
    assert not Ranking.objects.get(pk=ranked.pk).updating
