"""A whole scoresheet (skat/sheet.py) at its edges: every refusal in full, with its field,
paragraph and game, and each line's dealer and declarer; what mutation testing (make
mutation) showed the command-line tests, which read only the messages' start, left open."""

from __future__ import annotations

from dataclasses import replace

import pytest

from skat.sheet import SheetError, active_seats, dealer_seat, evaluate_sheet

THREE = ["A", "B", "C"]


@pytest.mark.parametrize(
    ("sheet", "message", "game"),
    [
        ([], 'sheet: must be a JSON object {"players": [...], "games": [...]} (5.5.2)', None),
        (
            {"players": THREE, "games": [], "date": "x"},
            "date: unknown field; a sheet has players and games (5.5.2)",
            None,
        ),
        ({"players": THREE, "games": {}}, "games: must be a list of games, one per deal (5.5.2)", None),
        (
            {"players": ["A", "B", 3], "games": []},
            "players: must be a list of 3 or 4 player names in seat order (3.1.1)",
            None,
        ),
        (
            {"players": "ABC", "games": []},
            "players: must be a list of 3 or 4 player names in seat order (3.1.1)",
            None,
        ),
        (
            {"players": ["A", "B", " "], "games": []},
            "players: must be a list of 3 or 4 player names in seat order (3.1.1)",
            None,
        ),
        ({"players": ["A", "B"], "games": []}, "players: a table has 3 or 4 players, not 2 (3.2.7)", None),
        ({"players": [*THREE, "D", "E"], "games": []}, "players: a table has 3 or 4 players, not 5 (3.2.7)", None),
        (
            {"players": ["A", " A", "B"], "games": []},
            "players: every player's name must be different, so the declarer is unambiguous (5.5.2)",
            None,
        ),
        (
            {"players": THREE, "games": [7]},
            'game 1: game: must be a JSON object: a game or {"passed": true} (5.5.2)',
            1,
        ),
        ({"players": THREE, "games": [{"passed": "yes"}]}, "game 1: passed: must be true or false (3.3.7)", 1),
        (
            {"players": THREE, "games": [{"passed": True}, {"passed": True, "declarer": "A", "contract": "grand"}]},
            "game 2: contract: a passed-out deal has no declarer and no game (3.3.7)",
            2,
        ),
        (
            {"players": THREE, "games": [{"declarer": "Z", "contract": "grand"}]},
            "game 1: declarer: 'Z' is not a player of this table: A, B, C (5.5.2)",
            1,
        ),
        (
            {"players": THREE, "games": [{"declarer": 3, "contract": "grand"}]},
            "game 1: declarer: 3 is not a player of this table: A, B, C (5.5.2)",
            1,
        ),
        (
            {"players": [*THREE, "D"], "games": [{"passed": True}, {"declarer": "B", "contract": "grand"}]},
            "game 2: declarer: B deals game 2 and sits out at a table of four, so cannot be declarer (3.2.7)",
            2,
        ),
    ],
)
def test_a_sheet_it_cannot_evaluate_is_refused_in_full(sheet, message, game):
    with pytest.raises(SheetError) as raised:
        evaluate_sheet(sheet)
    assert str(raised.value) == message
    assert raised.value.game == game
    assert raised.value.field == message.removeprefix(f"game {game}: ").split(":")[0]
    assert raised.value.paragraph == message.rsplit("(", 1)[1].rstrip(")")


def test_the_deal_passes_to_the_left_and_the_dealer_sits_out_at_four():
    """3.2.1 and 3.2.7: seat 1 deals game 1; at four the dealer does not play."""
    assert [dealer_seat(n, 4) for n in range(1, 7)] == [1, 2, 3, 4, 1, 2]
    assert [dealer_seat(n, 3) for n in range(1, 5)] == [1, 2, 3, 1]
    assert [active_seats(n, 4) for n in (1, 2, 4)] == [(2, 3, 4), (1, 3, 4), (1, 2, 3)]
    assert active_seats(2, 3) == (1, 2, 3)


def test_each_line_of_the_sheet_says_its_dealer_and_declarer():
    sheet = {
        "players": ["Anna", " Bernd ", "Clara", "Dieter"],
        "games": [
            {"declarer": "Bernd", "contract": "grand", "tops": 2, "declarer_points": 75},  # +72
            {"passed": True},
            {"declarer": " Anna", "contract": "hearts", "tops": 1, "declarer_points": 50},  # -40
        ],
    }
    result = evaluate_sheet(sheet)
    assert result.players == ("Anna", "Bernd", "Clara", "Dieter")
    assert [(line.number, line.dealer, line.declarer) for line in result.lines] == [(1, 1, 2), (2, 2, None), (3, 3, 1)]
    assert [line.outcome.score if line.outcome else None for line in result.lines] == [72, None, -40]
    assert result.as_dict()["settlement"] == dict(zip(result.players, result.settlement, strict=True))


def test_a_games_refusal_naming_two_fields_keeps_both_on_the_sheet():
    """1.2.2: card points that the tricks cannot hold are the fault of both fields."""
    game = {"declarer": "A", "contract": "grand", "tops": 1, "declarer_points": 120, "declarer_tricks": 3}
    with pytest.raises(SheetError) as raised:
        evaluate_sheet({"players": THREE, "games": [game]})
    assert str(raised.value).startswith("game 1: declarer_points, declarer_tricks: card points 120 and tricks 3 ")
    assert (raised.value.field, raised.value.and_field, raised.value.paragraph) == (
        "declarer_points",
        "declarer_tricks",
        "1.2.2",
    )


def test_a_game_marked_not_passed_out_is_valued_as_a_game():
    game = {"passed": False, "declarer": "B", "contract": "grand", "tops": 1, "declarer_points": 61}
    [line] = evaluate_sheet({"players": THREE, "games": [game]}).lines
    assert (line.declarer, line.outcome.won, line.outcome.score) == (2, True, 48)


def test_a_sheets_answer_refuses_names_and_values_that_do_not_pair_up():
    """as_dict pairs each name with its rating and settlement; a result that does not
    pair up (not one that evaluate_sheet makes) is refused, not cut short."""
    result = evaluate_sheet({"players": THREE, "games": []})
    for short in (
        replace(result, ratings=result.ratings[:2]),
        replace(result, settlement=result.settlement[:2]),
    ):
        with pytest.raises(ValueError, match="zip"):
            short.as_dict()
