"""Game: valued by the engine at save; the database refuses impossible rows."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction

from scoring.models import Game
from skat.rules import RuleError
from tests import factories

pytestmark = pytest.mark.django_db


def test_the_engine_values_the_game_before_it_is_stored():
    table = factories.table_of(4)
    g = factories.game(table, 2, declarer_seat=1, contract="hearts", tops=1, declarer_points=70, bid=50)
    g.refresh_from_db()
    assert (g.dealer_seat, g.won, g.lost, g.overbid, g.value, g.score, g.multiplier) == (
        2,
        False,
        True,
        True,
        50,
        -100,
        5,
    )
    assert g.tops_kind == "with"


def test_a_passed_out_deal_scores_nothing_and_forgets_stray_fields():
    table = factories.table_of(3)
    g = Game(table=table, number=1, passed_out=True, declarer_seat=2, contract="grand", tops=2)
    g.apply_rules(3)
    g.save()
    assert (g.declarer_seat, g.contract, g.tops, g.score, g.won, g.lost) == (None, "", None, 0, False, False)


def test_the_dealer_at_a_table_of_four_cannot_declare():
    table = factories.table_of(4)
    g = Game(table=table, number=3, declarer_seat=3, contract="grand", tops=1, declarer_points=70)
    with pytest.raises(RuleError) as raised:
        g.apply_rules(4)
    assert (raised.value.field, raised.value.paragraph) == ("declarer_seat", "3.2.7")
    assert g.value == 0, "a rejected game changes nothing"


def test_a_seat_the_table_does_not_have_and_a_missing_declarer_are_refused():
    table = factories.table_of(3)
    with pytest.raises(RuleError, match="no seat 4"):
        Game(table=table, number=1, declarer_seat=4, contract="grand", tops=1, declarer_points=70).apply_rules(3)
    with pytest.raises(RuleError, match="choose the declarer"):
        Game(table=table, number=1, contract="grand", tops=1, declarer_points=70).apply_rules(3)


def test_one_game_per_deal_is_a_database_constraint():
    table = factories.table_of(3)
    factories.game(table, 1, passed_out=True)
    with pytest.raises(IntegrityError), transaction.atomic():
        factories.game(table, 1, passed_out=True)


def test_a_declared_game_without_declarer_is_refused_by_the_database():
    table = factories.table_of(3)
    # save() asks the engine first (5.5.1); below it, a row written around save() meets the constraint.
    with pytest.raises(RuleError, match="choose the declarer"):
        Game.objects.create(table=table, number=1, dealer_seat=1, passed_out=False, declarer_seat=None)
    with pytest.raises(IntegrityError), transaction.atomic():
        Game.objects.bulk_create([Game(table=table, number=1, dealer_seat=1, passed_out=False, declarer_seat=None)])
