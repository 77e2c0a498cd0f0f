"""`python -m skat` (and `manage.py evaluate`, its wrapper): the command-line contract for games and sheets."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from skat import cli


def run(capsys, *args: str) -> tuple[int, list[str]]:
    """Run the tool in-process; return (exit code, stdout lines)."""
    code = cli.main(list(args))
    out = capsys.readouterr().out
    return code, [line for line in out.splitlines() if line]


def refused(capsys, *args: str) -> tuple[int, str]:
    """Run the tool on input it cannot read; return (exit code, stderr), stdout empty."""
    code = cli.main(list(args))
    captured = capsys.readouterr()
    assert captured.out == ""
    return code, captured.err


def jsonl(tmp_path: Path, *lines: str) -> str:
    path = tmp_path / "games.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


def test_valid_games_answer_in_order_with_exactly_the_five_keys(tmp_path, capsys):
    path = jsonl(
        tmp_path,
        '{"contract": "diamonds", "tops": 1, "declarer_points": 61}',
        '{"contract": "hearts", "tops": 1, "declarer_points": 70, "bid": 50}',
        '{"contract": "null", "ouvert": true, "hand": true, "declarer_tricks": 0}',
        '{"contract": "grand", "tops": 4, "hand": true, "ouvert": true,'
        ' "declarer_points": 120, "declarer_tricks": 10}',
    )
    code, lines = run(capsys, path)
    assert code == 0
    answers = [json.loads(line) for line in lines]
    assert answers == [
        {"won": True, "value": 18, "score": 18, "overbid": False, "multiplier": 2},
        # 5.4.1: bid 50, hearts with 1 -> overbid, raised to 5 x 10, doubled.
        {"won": False, "value": 50, "score": -100, "overbid": True, "multiplier": 5},
        {"won": True, "value": 59, "score": 59, "overbid": False, "multiplier": None},
        {"won": True, "value": 264, "score": 264, "overbid": False, "multiplier": 11},
    ]
    assert [list(a) for a in answers] == [["won", "value", "score", "overbid", "multiplier"]] * 4


def test_an_invalid_line_answers_an_error_and_the_rest_still_run(tmp_path, capsys):
    path = jsonl(
        tmp_path,
        '{"contract": "grand", "tops": 5, "declarer_points": 70}',
        '{"contract": "spades", "tops": 2, "declarer_points": 30}',
        '{"contract": "null", "declarer_tricks": 0, "bid": 24}',
        "[1, 2]",
    )
    code, lines = run(capsys, path)
    assert code == 1
    answers = [json.loads(line) for line in lines]
    assert answers[0] == {"error": "tops: a grand has at most 4 tops, not 5 (2.4.3)"}
    # spades with 2, game 3, declarer schneidered 4 -> 44, lost -> -88.
    assert answers[1] == {"won": False, "value": 44, "score": -88, "overbid": False, "multiplier": 4}
    assert answers[2]["error"].startswith("bid: null is worth 23 and does not reach the bid 24")
    assert answers[2]["error"].endswith("(3.4.4)")
    assert answers[3]["error"].startswith("game: must be a JSON object")


def test_input_that_is_not_json_lines_exits_2_and_prints_nothing(tmp_path, capsys):
    path = jsonl(tmp_path, '{"contract": "grand", "tops": 1, "declarer_points": 61}', "{not json")
    code, error = refused(capsys, path)
    assert code == 2
    assert "line 2" in error


def test_blank_lines_are_skipped(tmp_path, capsys):
    path = jsonl(tmp_path, "", '{"contract": "clubs", "tops": 1, "declarer_points": 61}', "   ")
    code, lines = run(capsys, path)
    assert code == 0
    assert [json.loads(line)["value"] for line in lines] == [24]


def test_missing_file_and_non_utf8_input_exit_2(tmp_path, capsys):
    assert refused(capsys, str(tmp_path / "nope.jsonl"))[0] == 2
    binary = tmp_path / "latin1.jsonl"
    binary.write_bytes(b'{"contract": "\xe9"}\n')
    assert refused(capsys, str(binary))[0] == 2


def sheet_file(tmp_path: Path, data: object) -> str:
    path = tmp_path / "sheet.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


def test_sheet_of_four_rates_players_and_settles(tmp_path, capsys):
    # Game 1 is dealt by Anna (seat 1), game 2 by Bernd, game 3 by Clara, game 4 by Dieter.
    sheet = {
        "players": ["Anna", "Bernd", "Clara", "Dieter"],
        "games": [
            {"declarer": "Bernd", "contract": "grand", "tops": 2, "declarer_points": 75},  # +72
            {"declarer": "Anna", "contract": "hearts", "tops": 1, "declarer_points": 50},  # -40
            {"passed": True},
            {"declarer": "Clara", "contract": "null", "declarer_tricks": 0},  # +23
        ],
    }
    code, lines = run(capsys, "--sheet", sheet_file(tmp_path, sheet))
    assert code == 0
    answer = json.loads(lines[0])
    assert answer["players"] == [
        # Anna lost one game: -40 - 50; Bernd, Clara, Dieter get 30 each for it.
        {"name": "Anna", "points": -40, "won": 0, "lost": 1, "bonus": 0, "rating": -90},
        {"name": "Bernd", "points": 72, "won": 1, "lost": 0, "bonus": 30, "rating": 152},
        {"name": "Clara", "points": 23, "won": 1, "lost": 0, "bonus": 30, "rating": 103},
        {"name": "Dieter", "points": 0, "won": 0, "lost": 0, "bonus": 30, "rating": 30},
    ]
    # 5.5.5: total x 4 - sum(55).
    assert answer["settlement"] == {"Anna": -215, "Bernd": 233, "Clara": 37, "Dieter": -55}


def test_sheet_of_three_gives_40_to_each_opponent(tmp_path, capsys):
    sheet = {
        "players": ["A", "B", "C"],
        "games": [{"declarer": "A", "contract": "spades", "tops": 1, "declarer_points": 40}],
    }
    code, lines = run(capsys, "--sheet", sheet_file(tmp_path, sheet))
    assert code == 0
    players = json.loads(lines[0])["players"]
    assert [(p["points"], p["bonus"], p["rating"]) for p in players] == [(-44, 0, -94), (0, 40, 40), (0, 40, 40)]


@pytest.mark.parametrize(
    ("sheet", "error"),
    [
        (
            {
                "players": ["A", "B", "C", "D"],
                "games": [{"declarer": "A", "contract": "grand", "tops": 1, "declarer_points": 61}],
            },
            "game 1: declarer: A deals game 1 and sits out at a table of four, so cannot be declarer (3.2.7)",
        ),
        (
            {"players": ["A", "B", "C"], "games": [{"passed": True}] * 6 + [{"declarer": "B", "contract": "grand"}]},
            "game 7: tops: required for a grand",
        ),
        ({"players": ["A", "B"], "games": []}, "players: a table has 3 or 4 players, not 2 (3.2.7)"),
        ({"players": ["A", "A", "B"], "games": []}, "players: every player's name must be different"),
        ({"players": ["A", "B", "C"], "games": {}}, "games: must be a list"),
        ({"players": ["A", "B", "C"], "games": [], "date": "x"}, "date: unknown field"),
        ([], "sheet: must be a JSON object"),
        ({"players": ["A", "B", "C"], "games": [{"declarer": "Z", "contract": "grand"}]}, "game 1: declarer: 'Z'"),
        ({"players": ["A", "B", "C"], "games": [{"passed": True, "declarer": "A"}]}, "game 1: declarer: a passed-out"),
        ({"players": ["A", "B", "C"], "games": [{"passed": "yes"}]}, "game 1: passed: must be true or false"),
        ({"players": ["A", "B", "C"], "games": [7]}, "game 1: game: must be a JSON object"),
        ({"players": ["A", "B", 3], "games": []}, "players: must be a list of 3 or 4 player names"),
    ],
)
def test_sheet_errors_name_the_game_and_field(tmp_path, capsys, sheet, error):
    code, lines = run(capsys, "--sheet", sheet_file(tmp_path, sheet))
    assert code == 1
    assert json.loads(lines[0])["error"].startswith(error)


def test_sheet_that_is_not_json_exits_2(tmp_path, capsys):
    path = tmp_path / "sheet.json"
    path.write_text("{players: nope}", encoding="utf-8")
    assert refused(capsys, "--sheet", str(path))[0] == 2


def test_an_irregularity_may_be_given_and_the_answer_keeps_its_five_keys(tmp_path, capsys):
    path = jsonl(
        tmp_path,
        '{"contract": "clubs", "tops": 2, "irregularity": "opponents"}',
        '{"contract": "grand", "tops": 1, "declarer_points": 95, "irregularity": "declarer"}',
        '{"contract": "grand", "tops": 1, "declarer_points": 95, "irregularity": null}',
        '{"contract": "grand", "tops": 1, "irregularity": "referee"}',
    )
    code, lines = run(capsys, path)
    assert code == 1
    answers = [json.loads(line) for line in lines]
    assert answers[0] == {"won": True, "value": 36, "score": 36, "overbid": False, "multiplier": 3}
    assert answers[1] == {"won": False, "value": 48, "score": -96, "overbid": False, "multiplier": 2}
    # Without it (or null) the game is valued as played: schneider counts.
    assert answers[2] == {"won": True, "value": 72, "score": 72, "overbid": False, "multiplier": 3}
    assert answers[3]["error"].startswith("irregularity: ") and answers[3]["error"].endswith("(4.1.4)")


def test_impossible_card_points_for_the_tricks_answer_an_error_naming_both_fields(tmp_path, capsys):
    path = jsonl(
        tmp_path,
        '{"contract": "clubs", "tops": 1, "declarer_points": 0, "declarer_tricks": 5}',
        '{"contract": "grand", "tops": 1, "declarer_points": 120, "declarer_tricks": 3}',
        '{"contract": "hearts", "tops": 1, "declarer_points": 30, "declarer_tricks": 0}',
        '{"contract": "spades", "tops": 2, "declarer_points": 60, "declarer_tricks": 9}',
    )
    code, lines = run(capsys, path)
    assert code == 1
    errors = [json.loads(line)["error"] for line in lines]
    assert len(errors) == 4
    for error in errors:
        assert error.startswith("declarer_points, declarer_tricks: ") and error.endswith("(1.2.2)")


def test_announced_schwarz_or_ouvert_lost_on_card_points_needs_no_tricks(tmp_path, capsys):
    path = jsonl(
        tmp_path,
        '{"contract": "hearts", "tops": 1, "hand": true, "schwarz_announced": true, "declarer_points": 100}',
        '{"contract": "grand", "tops": 2, "hand": true, "ouvert": true, "declarer_points": 119}',
        '{"contract": "grand", "tops": 2, "hand": true, "ouvert": true, "declarer_points": 118}',
        '{"contract": "grand", "tops": 2, "hand": true, "ouvert": true, "declarer_points": 120}',
    )
    code, lines = run(capsys, path)
    assert code == 1
    answers = [json.loads(line) for line in lines]
    # hearts 1: tops, game, schneider, schwarz, hand, both announced = 7 x 10, lost doubled.
    assert answers[0] == {"won": False, "value": 70, "score": -140, "overbid": False, "multiplier": 7}
    assert answers[1]["error"].startswith("declarer_points: ") and answers[1]["error"].endswith("(1.2.2)")
    assert answers[2] == {"won": False, "value": 216, "score": -432, "overbid": False, "multiplier": 9}
    assert answers[3]["error"].startswith("declarer_tricks: ") and answers[3]["error"].endswith("(5.2.8)")
