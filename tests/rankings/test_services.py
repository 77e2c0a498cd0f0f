"""A ranking's tournaments and people (rankings/services.py, people.py, compute.py): each
figure below is computed by hand from the evenings' wins (tests/rankings/helpers.py:
a win is a rating of 98)."""

from __future__ import annotations

import datetime

import pytest

from rankings import people, services
from rankings.models import PersonDecision, PlacePoints, Ranking, RankingLine, RankingTournament
from tests import factories
from tests.rankings.helpers import WIN, evening

pytestmark = pytest.mark.django_db


@pytest.fixture
def club():
    """Four club-mates and their director."""
    director = factories.user("chair")
    players = [factories.player(name, club="SC Herz") for name in ("Anna Alt", "Bert Bau", "Carl Cis", "Dora Dix")]
    return director, players


def lines(ranking: Ranking, category: str = "") -> list[tuple]:
    return list(
        RankingLine.objects.filter(ranking=ranking, category=category).values_list("place", "name", "value", "counted")
    )


def test_a_tournament_added_is_read_and_ranked(club):
    """Anna 2 wins (196), Bert 1 (98), Carl and Dora none (0, sharing place 3)."""
    director, (a, b, c, d) = club
    t = evening("E1", datetime.date(2027, 1, 5), {a: 2, b: 1, c: 0, d: 0}, directors=[director])
    ranking = Ranking.objects.create(name="Jahreswertung", season="2027", tie_break_1="best")
    added = services.add_tournament(ranking, t, director)
    assert added.players == 4 and added.doubtful == 0
    assert lines(ranking) == [
        (1, "Anna Alt", str(2 * WIN), 1),
        (2, "Bert Bau", str(WIN), 1),
        (3, "Carl Cis", "0", 1),
        (3, "Dora Dix", "0", 1),
    ]


def test_a_tournament_added_twice_is_explained_and_changes_nothing(club):
    director, (a, b, c, d) = club
    t = evening("E1", datetime.date(2027, 1, 5), {a: 1, b: 0, c: 0, d: 0}, directors=[director])
    ranking = Ranking.objects.create(name="JW")
    services.add_tournament(ranking, t, director)
    with pytest.raises(
        services.RankingRefused, match=r"is in this ranking already \(added on .*\): a tournament counts once"
    ):
        services.add_tournament(ranking, t, director)
    assert RankingTournament.objects.filter(ranking=ranking).count() == 1


def test_a_tournament_the_rules_cannot_take_is_refused_naming_the_rule(club):
    """Planned: 1 tournament; a second is refused and not added."""
    director, (a, b, c, d) = club
    t1 = evening("E1", datetime.date(2027, 1, 5), {a: 1, b: 0, c: 0, d: 0})
    t2 = evening("E2", datetime.date(2027, 2, 5), {a: 1, b: 0, c: 0, d: 0})
    ranking = Ranking.objects.create(name="JW", planned=1)
    services.add_tournament(ranking, t1, director)
    with pytest.raises(
        services.RankingRefused,
        match=r"E2 .* was not added: the rule “of M planned” cannot be computed: 2 results are held, more than the 1",
    ):
        services.add_tournament(ranking, t2, director)
    assert list(RankingTournament.objects.filter(ranking=ranking).values_list("tournament", flat=True)) == [t1.pk]
    assert len(lines(ranking)) == 4


def test_a_tournament_not_played_yet_adds_no_result(club):
    director, _players = club
    ranking = Ranking.objects.create(name="JW")
    added = services.add_tournament(ranking, factories.tournament(name="Later"), director)
    assert added.players == 0 and lines(ranking) == []


def test_best_two_of_three_with_a_minimum_of_two_and_a_category(club):
    """Best 2 of 3, minimum 2. Wins per evening: Anna 2, 0, 3 -> 196 + 294 = 490 (0 dropped);
    Bert 1, 3, - -> 98 + 294 = 392; Carl 0, 1, 0 -> 98 + 0 = 98; Dora only E1 (0): unranked.
    Women: Anna 490 (1), Dora unranked."""
    director, (a, b, c, d) = club
    e = factories.player("Emil Eck", club="SC Herz")
    women = {a: "Damen", d: "Damen"}
    evenings = [
        evening("E1", datetime.date(2027, 1, 5), {a: 2, b: 1, c: 0, d: 0}, categories=women),
        evening("E2", datetime.date(2027, 2, 5), {a: 0, b: 3, c: 1, e: 0}, categories=women),
        evening("E3", datetime.date(2027, 3, 5), {a: 3, c: 0, e: 0, factories.player("Fritz Fuß"): 0}),
    ]
    ranking = Ranking.objects.create(name="JW", best=2, planned=3, minimum=2)
    for t in evenings:
        services.add_tournament(ranking, t, director)
    assert lines(ranking)[:4] == [
        (1, "Anna Alt", "490", 2),
        (2, "Bert Bau", "392", 2),
        (3, "Carl Cis", "98", 2),
        (4, "Emil Eck", "0", 2),
    ]
    assert lines(ranking)[4:] == [(None, "Dora Dix", "0", 1), (None, "Fritz Fuß", "0", 1)]
    assert lines(ranking, "Damen") == [(1, "Anna Alt", "490", 2), (None, "Dora Dix", "0", 1)]
    anna = RankingLine.objects.get(ranking=ranking, category="", player=a)
    assert [(r[2], r[3]) for r in anna.results] == [(196, True), (0, False), (294, True)]


def test_points_per_place_per_series(club):
    """Table 10, 6, 3: Anna places 1 (10), Bert 2 (6), Carl and Dora share nothing: the
    standings' lot orders them 3 and 4, so one gets 3 and the other 0."""
    director, (a, b, c, d) = club
    t = evening("E1", datetime.date(2027, 1, 5), {a: 2, b: 1, c: 0, d: 0})
    ranking = Ranking.objects.create(name="Cup", counts="place_points", unit="series")
    PlacePoints.objects.bulk_create(
        [PlacePoints(ranking=ranking, place=p, points=x) for p, x in [(1, 10), (2, 6), (3, 3)]]
    )
    services.add_tournament(ranking, t, director)
    assert [v for _p, _n, v, _c in lines(ranking)] == ["10", "6", "3", "0"]


def test_read_again_after_a_correction_and_taken_out(club):
    director, (a, b, c, d) = club
    t = evening("E1", datetime.date(2027, 1, 5), {a: 1, b: 0, c: 0, d: 0})
    ranking = Ranking.objects.create(name="JW")
    entry = services.add_tournament(ranking, t, director).entry
    t.series.get().tables.get().games.filter(number=2).delete()  # Anna's won grand voided
    assert lines(ranking)[0][1:3] == ("Anna Alt", str(WIN))
    assert services.refresh(ranking) == 1
    assert {v for _p, _n, v, _c in lines(ranking)} == {"0"}
    services.remove_tournament(entry)
    assert lines(ranking) == []


def test_a_merge_counts_two_records_as_one_and_is_audited_and_undone(club):
    """Anna played E1 for SC Herz and E2 for TuS Pik (a second record): 196 + 98 = 294 once merged."""
    director, (a, b, c, d) = club
    a2 = factories.player("Anna Alt", club="TuS Pik")
    evening("E1", datetime.date(2027, 1, 5), {a: 2, b: 0, c: 0, d: 0})
    evening("E2", datetime.date(2027, 2, 5), {a2: 1, b: 0, c: 0, d: 0})
    ranking = Ranking.objects.create(name="JW")
    for t in ranking_tournaments():
        services.add_tournament(ranking, t, director)
    assert [(x.player, x.other, x.why) for x in people.doubtful(ranking)] == [(a, a2, "the same name in another club")]
    decision = people.decide(ranking, a, a2, director, "moved to TuS Pik in February", same=True)
    assert lines(ranking)[0] == (1, "Anna Alt", str(3 * WIN), 2)
    assert people.doubtful(ranking) == []
    assert (decision.decided_by, decision.reason) == (director, "moved to TuS Pik in February")
    people.undo(decision, director)
    decision.refresh_from_db()
    assert decision.undone_by == director and decision.undone_at is not None
    assert len(lines(ranking)) == 5
    with pytest.raises(services.RankingRefused, match="undone already"):
        people.undo(decision, director)


def ranking_tournaments():
    from tournaments.models import Tournament

    return Tournament.objects.order_by("date")


def test_keeping_two_records_apart_answers_the_doubt(club):
    director, (a, b, c, d) = club
    a2 = factories.player("Anna Alt", club="TuS Pik")
    evening("E1", datetime.date(2027, 1, 5), {a: 2, b: 0, c: 0, d: 0})
    evening("E2", datetime.date(2027, 2, 5), {a2: 1, b: 0, c: 0, d: 0})
    ranking = Ranking.objects.create(name="JW")
    for t in ranking_tournaments():
        services.add_tournament(ranking, t, director)
    people.decide(ranking, a2, a, director, "mother and daughter", same=False)
    assert people.doubtful(ranking) == [] and len(lines(ranking)) == 5


@pytest.mark.parametrize(
    ("case", "message"),
    [
        ("same record", "two different player records"),
        ("no reason", "say why"),
        ("not in ranking", "choose two records with a result in this ranking"),
        ("numbers", "different membership numbers .1, 2.: two people"),
        ("together", "both played in E1 .*: two people"),
    ],
)
def test_a_merge_that_cannot_be_is_refused_and_writes_nothing(club, case, message):
    director, (a, b, c, d) = club
    a.membership_number = "1"
    a.save()
    a2 = factories.player("Anna Alt", club="TuS Pik", membership_number="2")
    evening("E1", datetime.date(2027, 1, 5), {a: 2, b: 0, c: 0, d: 0})
    evening("E2", datetime.date(2027, 2, 5), {a2: 1, b: 0, c: 0, d: 0})
    ranking = Ranking.objects.create(name="JW")
    for t in ranking_tournaments():
        services.add_tournament(ranking, t, director)
    player, other, reason = {
        "same record": (a, a, "x"),
        "no reason": (a, a2, " "),
        "not in ranking": (a, factories.player("Nobody"), "x"),
        "numbers": (a, a2, "x"),
        "together": (a, b, "x"),
    }[case]
    with pytest.raises(services.RankingRefused, match=message):
        people.decide(ranking, player, other, director, reason, same=True)
    assert not PersonDecision.objects.exists()


def test_a_merge_contradicted_by_a_later_tournament_is_not_applied(club):
    director, (a, b, c, d) = club
    a2 = factories.player("Anna Alt", club="TuS Pik")
    evening("E1", datetime.date(2027, 1, 5), {a: 2, b: 0, c: 0, d: 0})
    evening("E2", datetime.date(2027, 2, 5), {a2: 1, b: 0, c: 0, d: 0})
    ranking = Ranking.objects.create(name="JW")
    for t in ranking_tournaments():
        services.add_tournament(ranking, t, director)
    people.decide(ranking, a, a2, director, "one person", same=True)
    services.add_tournament(ranking, evening("E3", datetime.date(2027, 3, 5), {a: 0, a2: 0, b: 0, c: 0}), director)
    assert people.contradicted(ranking) == [(a, a2)]
    assert sum(1 for line in lines(ranking) if line[1] == "Anna Alt") == 2
