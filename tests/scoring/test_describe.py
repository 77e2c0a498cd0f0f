"""scoring.describe: one description of a game for every page, PDF and export."""

from __future__ import annotations

import pytest
from django.utils import translation

from scoring.describe import announced, announced_levels, game_html, game_text
from scoring.models import Game
from tests import factories

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


def game(**fields) -> Game:
    table = factories.table_of(3)
    return factories.game(table, 1, declarer_seat=1, **fields)


@pytest.mark.parametrize(
    ("fields", "text"),
    [
        (
            {
                "contract": "hearts",
                "tops_kind": "without",
                "tops": 2,
                "hand": True,
                "schneider_announced": True,
                "declarer_points": 95,
            },
            "Hearts without 2 hand schneider announced = 60",
        ),
        (
            {"contract": "hearts", "tops": 1, "hand": True, "schwarz_announced": True, "declarer_points": 100},
            "Hearts with 1 hand schneider schwarz announced = 70",
        ),
        (
            {
                "contract": "grand",
                "tops": 1,
                "hand": True,
                "ouvert": True,
                "declarer_points": 120,
                "declarer_tricks": 10,
            },
            "Grand with 1 hand schneider schwarz ouvert = 192",
        ),
        ({"contract": "null", "hand": True, "ouvert": True, "declarer_tricks": 0}, "Null hand ouvert = 59"),
        ({"contract": "spades", "tops": 2, "declarer_points": 30}, "Spades with 2 schneider = 44"),
        ({"contract": "hearts", "tops": 1, "declarer_points": 70, "bid": 50}, "Hearts with 1 overbid = 50"),
        (
            {"contract": "clubs", "tops": 1, "declarer_points": 0, "declarer_tricks": 0},
            "Clubs with 1 schneider schwarz = 48",
        ),
    ],
)
def test_a_game_in_words(fields, text):
    assert game_text(game(**fields)) == text


def test_marks_and_passed_out():
    table = factories.table_of(3)
    assert game_text(factories.game(table, 1, passed_out=True)) == "passed out"
    played = factories.game(table, 2, declarer_seat=1, contract="grand", tops=1, declarer_points=70)
    played.irregularity, played.voided = "declarer", True
    assert game_text(played) == "Grand with 1 = 48 irregularity void"
    assert str(game_html(played)) == (
        'Grand with 1 <span class="muted">= 48</span> <em class="mark">irregularity</em> '
        '<strong class="mark">void</strong>'
    )


def test_announcements_include_the_lower_ones_but_null_announces_none():
    assert announced_levels("hearts", False, True, False) == (True, True)  # 5.2.6
    assert announced_levels("grand", False, False, True) == (True, True)
    assert announced_levels("clubs", True, False, False) == (True, False)
    assert announced_levels("null", False, False, True) == (False, False)  # null ouvert (2.1.3)
    assert announced(game(contract="null", ouvert=True, declarer_tricks=0)) == (False, False)


def test_the_words_follow_the_language():
    hearts = game(
        contract="hearts", tops_kind="without", tops=2, hand=True, schneider_announced=True, declarer_points=95
    )
    with translation.override("de"):
        assert game_text(hearts).startswith("Herz ohne 2 Hand")
    assert game_text(hearts).startswith("Hearts without 2 hand")
