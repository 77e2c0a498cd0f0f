"""One paper row read step by step and valued by the engine (transfer.paper_rows.parse_row).

Expected values by hand: the base value (5.2.1) times the multiplier (5.3.1), a lost game
counts twice its value against the declarer (5.3.4).
"""

from __future__ import annotations

from core.spreadsheets import Row
from transfer.paper_rows import parse_row

PLAYERS = {1: "Anna", 2: "Bernd", 3: "Carla"}


def row(**values) -> Row:
    return Row(number=2, values=values)


def test_a_printed_line_with_its_base_value_and_tops_column_is_valued():
    # Base 12 is clubs (5.1.1); without 2, game 1: multiplier 3, 12 x 3 = 36; 50 card points lose: -72 (5.3.4).
    game, problems = parse_row(
        row(deal=1, declarer="Bernd", base=12, tops_without=2, declarer_points=50, value=36, score=-72),
        PLAYERS,
        1,
        3,
        18,
    )
    assert problems == []
    assert (game.declarer_seat, game.contract, game.tops_kind, game.value, game.score) == (
        2,
        "clubs",
        "without",
        36,
        -72,
    )


def test_a_passed_out_deal_with_a_declarer_names_the_declarer_column():
    game, problems = parse_row(row(deal=1, declarer=1, passed_out="x"), PLAYERS, 1, 3, 18)
    assert game.passed_out
    assert problems == ["declarer: a passed-out deal has no declarer and no game (3.3.7)"]


def test_the_problems_come_in_the_order_of_the_line():
    # Deal 2 of a table of three is dealt by seat 2 (3.2.1); no declarer; "trumps" is no contract.
    _game, problems = parse_row(row(deal=3, dealer=1, contract="trumps", hand="maybe"), PLAYERS, 2, 3, 18)
    assert [problem.split(":")[0] for problem in problems] == ["deal", "dealer", "declarer", "contract", "hand"]


def test_the_engine_s_refusal_names_its_column():
    # A grand with 12 tops: there are at most 4 (2.4.3).
    _game, problems = parse_row(
        row(deal=1, declarer=1, contract="grand", tops=12, declarer_points=70), PLAYERS, 1, 3, 18
    )
    assert len(problems) == 1 and problems[0].startswith("tops: 2.4.3")


def test_a_value_written_wrong_is_a_problem_of_its_column():
    # Grand with 1, game 1: 24 x 2 = 48, not 72.
    _game, problems = parse_row(
        row(deal=1, declarer=1, contract="grand", tops=1, declarer_points=70, value=72), PLAYERS, 1, 3, 18
    )
    assert problems == ["game value: the sheet says 72, the rules give 48 (5.1-5.4); correct the sheet or the row"]
