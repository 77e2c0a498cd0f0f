"""scoring.Game's referee fields: an irregularity is valued by the engine, a voided game
scores nothing (also by a database constraint), and the table sheet leaves it out."""

from __future__ import annotations

import pytest
from django.db import IntegrityError

from scoring import tablesheet
from scoring.models import Game
from tests import factories

from .helpers import full_table, open_table

pytestmark = pytest.mark.django_db


def test_apply_rules_values_an_irregularity():
    table = open_table(3)
    game = Game(table=table, number=1, declarer_seat=1, contract="clubs", tops=2, irregularity="opponents")
    outcome = game.apply_rules(3)
    assert (outcome.won, game.score, game.value, game.schneider) == (True, 36, 36, False)


def test_a_passed_out_deal_forgets_an_irregularity():
    table = open_table(3)
    game = Game(table=table, number=1, passed_out=True, irregularity="declarer")
    game.apply_rules(3)
    assert game.irregularity == ""


def test_a_voided_game_keeps_its_value_and_scores_nothing():
    table = open_table(3)
    game = factories.game(table, 1, declarer_seat=1, contract="grand", tops=1, declarer_points=70, voided=True)
    assert (game.value, game.score, game.won, game.lost) == (48, 0, False, False)


def test_the_database_refuses_a_voided_game_that_scores():
    table = open_table(3)
    game = factories.game(table, 1, declarer_seat=1, contract="grand", tops=1, declarer_points=70)
    with pytest.raises(IntegrityError):
        Game.objects.filter(pk=game.pk).update(voided=True)


def test_the_table_sheet_leaves_a_voided_game_out_of_totals_and_rating():
    table = full_table(3)
    games = list(table.games.order_by("number"))
    games[1].voided = True
    games[1].apply_rules(3)
    sheet = tablesheet.build(3, 3, games)
    assert sheet.totals == (48, 0, 0)
    assert [(r.won, r.lost, r.bonus) for r in sheet.ratings] == [(1, 0, 0), (0, 0, 0), (0, 0, 0)]
    assert sheet.entered == 3  # it stays on the sheet
