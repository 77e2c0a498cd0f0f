"""referees.corrections: every change of a stored game is one transaction with its record.

Every expected value is the Skatordnung's, worked out by hand: the base value (5.2.1:
diamonds 9, hearts 10, spades 11, clubs 12, grand 24) times the multiplier (5.3.1: tops
plus 1 for the game, plus hand, schneider, schwarz), a lost game counts twice its value
against the declarer (5.3.4).
"""

from __future__ import annotations

import pytest

from referees import corrections
from referees.models import Correction, Dispute
from scoring.models import Game
from skat.rules import RuleError
from standings.places import standings
from tests import factories

from .helpers import full_table

pytestmark = pytest.mark.django_db


def points_of(tournament) -> dict[str, int]:
    return {r.item.name: r.item.rating.points for r in standings(tournament)}


def ratings_of(tournament) -> dict[str, int]:
    return {r.item.name: r.item.rating.rating for r in standings(tournament)}


def test_a_correction_keeps_before_and_after_and_the_standings_follow_the_engine():
    table = full_table(3)
    tournament = table.series.tournament
    referee = factories.user("ref")
    # Seat2: hearts with 2, 50 card points: 10 x (2 + 1 game) = 30, lost: -2 x 30 = -60 (5.3.4).
    game = table.games.get(number=2)
    before_points = points_of(tournament)
    correction = corrections.correct_game(
        game.pk,
        expected_version=game.version,
        changes={"declarer_points": 75},
        user=referee,
        reason="The opponents' tricks were counted twice.",
    )
    # With 75 card points the same hearts with 2 is won: 10 x 3 = +30.
    game.refresh_from_db()
    assert (game.score, game.value, game.won, game.version) == (30, 30, True, 2)
    assert correction.before["declarer_points"] == 50 and correction.after["declarer_points"] == 75
    assert correction.before["score"] == -60 and correction.after["score"] == 30
    assert (correction.score_before, correction.score_after, correction.score_change) == (-60, 30, 90)
    assert (correction.version_before, correction.version_after) == (1, 2)
    assert correction.made_by == referee and correction.kind == "edit"
    assert correction.changed == [
        ("declarer_points", 50, 75),
        ("score", -60, 30),
        ("won", False, True),
        ("lost", True, False),
    ]
    after_points = points_of(tournament)
    assert after_points["Seat2"] - before_points["Seat2"] == 30 - (-60)
    assert after_points["Seat1"] == before_points["Seat1"]
    # The extended rating moves by the score change, +100 (-50 lost -> +50 won), and the
    # opponents lose their 40 each for the game no longer lost (the engine's and rating's rules).
    assert ratings_of(tournament) == {"Seat1": 48 + 50, "Seat2": 30 + 50, "Seat3": 0}


def test_an_irregularity_is_valued_by_the_engine():
    table = full_table(3)
    game = table.games.get(number=1)  # Seat1: grand with 1, 70 card points: 24 x (1 + 1 game) = 48, won
    corrections.correct_game(
        game.pk,
        expected_version=1,
        changes={"irregularity": "declarer"},
        user=factories.user(),
        reason="4.2.3: the declarer revoked in trick 3.",
    )
    game.refresh_from_db()
    # 4.1.4: the declarer's irregularity, the opponents win: the grand's 48 lost, -2 x 48 = -96 (5.3.4).
    assert (game.irregularity, game.won, game.score) == ("declarer", False, -96)


def test_voiding_keeps_the_game_and_scores_nothing_and_restoring_undoes_it():
    table = full_table(3)
    tournament = table.series.tournament
    game = table.games.get(number=1)
    user = factories.user()
    void = corrections.void_game(game.pk, expected_version=1, user=user, reason="3.2.11: dealt out of turn.")
    game.refresh_from_db()
    assert game.voided and (game.score, game.won, game.lost) == (0, False, False)
    assert game.value == 48  # its value stays on record
    assert void.kind == "void" and void.score_before == 48 and void.score_after == 0
    assert Game.objects.filter(table=table).count() == 3  # nothing deleted
    assert points_of(tournament)["Seat1"] == 0
    restore = corrections.restore_game(game.pk, expected_version=2, user=user, reason="Replayed: same result.")
    game.refresh_from_db()
    assert not game.voided and game.score == 48 and restore.kind == "restore"
    assert points_of(tournament)["Seat1"] == 48
    assert list(game.corrections.values_list("kind", flat=True)) == ["restore", "void"]


def test_a_stale_version_is_refused_not_overwritten():
    table = full_table(3)
    game = table.games.get(number=1)
    first, second = factories.user("first"), factories.user("second")
    corrections.correct_game(game.pk, expected_version=1, changes={"declarer_points": 90}, user=first, reason="a")
    with pytest.raises(RuleError) as caught:
        corrections.correct_game(game.pk, expected_version=1, changes={"declarer_points": 65}, user=second, reason="b")
    assert caught.value.field == "version" and "version 1 is now 2" in caught.value.message
    game.refresh_from_db()
    assert game.declarer_points == 90 and Correction.objects.count() == 1


def test_a_correction_the_engine_refuses_changes_nothing():
    table = full_table(3)
    game = table.games.get(number=1)
    with pytest.raises(RuleError) as caught:
        corrections.correct_game(game.pk, expected_version=1, changes={"tops": 5}, user=factories.user(), reason="x")
    assert caught.value.paragraph == "2.4.3"
    game.refresh_from_db()
    assert game.tops == 1 and game.version == 1 and not Correction.objects.exists()


@pytest.mark.parametrize(
    ("changes", "reason", "field"),
    [
        ({"declarer_points": 70}, "no change", "game"),
        ({"declarer_points": 80}, "  ", "reason"),
        ({"score": 100}, "hand-made score", "score"),
    ],
)
def test_refusals(changes, reason, field):
    table = full_table(3)
    game = table.games.get(number=1)
    with pytest.raises(RuleError) as caught:
        corrections.correct_game(game.pk, expected_version=1, changes=changes, user=factories.user(), reason=reason)
    assert caught.value.field == field
    assert not Correction.objects.exists()


def test_a_dispute_of_another_table_cannot_be_settled_here():
    table, other = full_table(3), full_table(3)
    dispute = Dispute.objects.create(table=other, description="x", raised_by="x")
    game = table.games.get(number=1)
    with pytest.raises(RuleError) as caught:
        corrections.void_game(
            game.pk, expected_version=1, user=factories.user(), reason="x", dispute=dispute, paragraph="3.2.11"
        )
    assert caught.value.field == "dispute"
    game.refresh_from_db()
    assert not game.voided


def test_a_null_game_with_tops_is_refused_by_the_engine():
    table = full_table(3)
    game = table.games.get(number=1)
    with pytest.raises(RuleError) as raised:
        corrections.correct_game(
            game.pk,
            expected_version=game.version,
            changes={"contract": "null", "tops": 2, "declarer_points": None, "declarer_tricks": 0},
            user=factories.user("ref"),
            reason="It was a null game.",
        )
    assert (raised.value.field, raised.value.paragraph) == ("tops", "2.4.3")
    game.refresh_from_db()
    assert game.contract == "grand" and not Correction.objects.exists()


def test_a_correction_settling_a_dispute_closes_it_in_the_same_transaction():
    table = full_table(3)
    referee = factories.user("ref")
    game = table.games.get(number=2)
    dispute = Dispute.objects.create(table=table, game=game, description="points", raised_by="x")
    corrections.correct_game(
        game.pk,
        expected_version=1,
        changes={"declarer_points": 75},
        user=referee,
        reason="recounted",
        dispute=dispute,
        paragraph="5.2.2",
    )
    dispute.refresh_from_db()
    assert (dispute.status, dispute.effect, dispute.paragraph, dispute.decided_by) == (
        "decided",
        "corrected",
        "5.2.2",
        referee,
    )
    # A closed dispute settles nothing else: the second change is refused, the game kept.
    with pytest.raises(RuleError) as raised:
        corrections.void_game(
            game.pk, expected_version=2, user=referee, reason="x", dispute=dispute, paragraph="3.2.11"
        )
    assert (raised.value.field, raised.value.paragraph) == ("dispute", "4.5.10")
    game.refresh_from_db()
    assert not game.voided and game.version == 2 and Correction.objects.count() == 1


def test_without_a_paragraph_a_dispute_is_not_settled_and_nothing_changes():
    table = full_table(3)
    game = table.games.get(number=2)
    dispute = Dispute.objects.create(table=table, game=game, description="points", raised_by="x")
    with pytest.raises(RuleError) as raised:
        corrections.correct_game(
            game.pk,
            expected_version=1,
            changes={"declarer_points": 75},
            user=factories.user(),
            reason="r",
            dispute=dispute,
        )
    assert (raised.value.field, raised.value.paragraph) == ("paragraph", "4.5.10")
    dispute.refresh_from_db()
    assert dispute.status == "open" and not Correction.objects.exists()


def test_adding_a_missed_deal_that_settles_a_dispute_decides_it_in_the_same_transaction():
    """4.5.10: adding the deal is the referee's decision on the dispute about it."""
    table = full_table(3)
    Game.objects.filter(table=table, number=table.deals).delete()
    type(table.series).objects.filter(pk=table.series_id).update(status="finished")
    user = factories.user("ref")
    dispute = Dispute.objects.create(table=table, description="the last deal is missing", raised_by="A")
    missing = {"number": table.deals, "fields": {"passed_out": True}, "user": user, "dispute": dispute}
    with pytest.raises(RuleError, match="cite the paragraph"):
        corrections.add_missing_game(table.pk, reason="seen on paper", **missing)
    correction = corrections.add_missing_game(table.pk, reason="seen on paper", paragraph="5.5.3", **missing)
    dispute.refresh_from_db()
    assert (dispute.status, dispute.effect, dispute.paragraph) == ("decided", "corrected", "5.5.3")
    assert correction.dispute_id == dispute.pk and correction.kind == Correction.Kind.ADD
