"""The table's two lists compared (scoring.lists): what is a difference and what is not."""

from __future__ import annotations

import random

import pytest

from office.demo import random_game
from referees import corrections
from scoring.lists import compare, describe, differing_deals
from scoring.models import ControlEntry, Game
from tests import factories
from tests.referees.helpers import full_table

pytestmark = pytest.mark.django_db


def second(table, number, **fields) -> ControlEntry:
    """An entry of the second list, valued by the engine as the control link stores it."""
    entry = ControlEntry(table=table, number=number, **fields)
    entry.apply_rules(table.size)
    entry.save()
    return entry


HEARTS = {"declarer_seat": 2, "contract": "hearts", "tops": 1, "tops_kind": "with", "declarer_points": 70}


def test_the_same_lines_agree_and_a_deal_on_one_list_only_is_no_difference():
    table = factories.table_of(3)
    factories.game(table, 1, **HEARTS)
    factories.game(table, 2, passed_out=True)
    factories.game(table, 3, **HEARTS)
    second(table, 1, **HEARTS)
    second(table, 2, passed_out=True)
    result = compare(list(table.games.order_by("number")), list(table.control_entries.all()))
    assert result.kept and result.differences == () and (result.sheet_entered, result.control_entered) == (3, 2)
    assert differing_deals([table.pk]) == {}


@pytest.mark.parametrize(
    "other",
    [
        {**HEARTS, "declarer_seat": 3},  # another declarer
        {**HEARTS, "contract": "spades"},  # another game
        {**HEARTS, "tops": 2},  # another value
        {**HEARTS, "declarer_points": 50},  # lost instead of won
        {"passed_out": True},  # passed out on one list only
    ],
)
def test_another_declarer_game_value_or_outcome_is_a_difference(other):
    table = factories.table_of(3)
    factories.game(table, 1, **HEARTS)
    second(table, 1, **other)
    result = compare(list(table.games.all()), list(table.control_entries.all()))
    assert result.numbers == [1]
    assert differing_deals(table.__class__.objects.filter(pk=table.pk)) == {table.pk: [1]}


def test_a_deal_a_referee_decided_is_no_difference():
    table = full_table(3)
    game = table.games.filter(passed_out=False).order_by("number").first()
    second(table, game.number, **{**HEARTS, "declarer_seat": game.declarer_seat % 3 + 1})
    assert differing_deals([table.pk]) == {table.pk: [game.number]}
    referee = factories.user("ref")
    corrections.void_game(game.pk, expected_version=game.version, user=referee, reason="dealt twice")
    assert differing_deals([table.pk]) == {}
    games = list(Game.objects.filter(table=table).with_correction_reason())
    assert compare(games, list(table.control_entries.all())).differences == ()


def test_the_database_pairs_the_lists_as_the_python_comparison_does():
    """differing_deals (one query for a series page) against compare (the table page) on random lists."""
    rng = random.Random(5)
    _t, series = factories.drawn(players=11)
    for table in series.tables.all():
        for number in range(1, table.deals + 1):
            game = random_game(rng, number, table.size)
            game.table = table
            game.save()
            if number <= table.deals - 5:  # the second list lags behind
                entry = ControlEntry(table=table, number=number)
                source = game if rng.random() < 0.9 else random_game(rng, number, table.size)
                for field in Game.ENTERED_FIELDS:
                    setattr(entry, field, getattr(source, field))
                entry.apply_rules(table.size)
                entry.save()
    expected = {}
    for table in series.tables.all():
        numbers = compare(list(table.games.all()), list(table.control_entries.all())).numbers
        if numbers:
            expected[table.pk] = numbers
    assert expected and differing_deals(series.tables.all()) == expected


def test_a_deal_is_described_as_the_players_read_it():
    table = factories.table_of(3)
    won = factories.game(table, 1, **HEARTS)
    assert describe(won, ["Anna", "Bernd", "Clara"]) == "Bernd: Hearts with 1 = 20, won +20"
    lost = second(table, 1, **{**HEARTS, "declarer_points": 40})
    assert describe(lost, ["Anna", "Bernd", "Clara"]) == "Bernd: Hearts with 1 = 20, lost -40"
    assert describe(factories.game(table, 2, passed_out=True), []) == "passed out"
