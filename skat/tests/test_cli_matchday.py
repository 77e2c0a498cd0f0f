"""`python -m skat --matchday FILE`: the league rule on the command line (a league point per
team outscored in each series on game points, the table by league points, then game points)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .test_cli_games import refused, run

TEAMS = {
    "Kreuz Bube": ["A1", "A2", "A3", "A4"],
    "Herz Dame": ["B1", "B2", "B3", "B4"],
    "Pik As": ["C1", "C2", "C3", "C4"],
    "Karo Zehn": ["D1", "D2", "D3", "D4"],
}


def table(*players: str, games=()) -> dict:
    return {"players": list(players), "games": list(games)}


def won_grand(declarer: str) -> dict:
    return {"declarer": declarer, "contract": "grand", "tops": 1, "declarer_points": 61}  # +48, rating +98


def lost_grand(declarer: str) -> dict:
    return {"declarer": declarer, "contract": "grand", "tops": 1, "declarer_points": 50}  # -96, rating -146


def series(games_of_table_1=(), games_of_table_2=()) -> list[dict]:
    """Two tables of four, one player of each team at each; seat 1 deals game 1 and sits out."""
    return [
        table("A1", "B1", "C1", "D1", games=games_of_table_1),
        table("B2", "C2", "D2", "A2", games=games_of_table_2),
    ]


def matchday_file(tmp_path: Path, data: object) -> str:
    path = tmp_path / "matchday.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


def test_a_match_day_answers_every_team_ranked_with_series_and_league_points(tmp_path, capsys):
    data = {
        "teams": TEAMS,
        "tie": "split",
        "series": [
            # Series 1: A1 wins a grand (+98); C1 loses one (-146; 30 to each of the three others).
            series([won_grand("B1"), lost_grand("C1")]),
            # Series 2: nothing played: all four teams level, each pair shares its point.
            series(),
        ],
    }
    code, lines = run(capsys, "--matchday", matchday_file(tmp_path, data))
    assert code == 0
    answer = json.loads(lines[0])
    first, *middle, last = answer["teams"]
    assert first == {"name": "Herz Dame", "series_points": [128, 0], "game_points": 128, "won": 4.5, "lost": 1.5}
    assert last == {"name": "Pik As", "series_points": [-146, 0], "game_points": -146, "won": 1.5, "lost": 4.5}
    assert all(t["series_points"] == [30, 0] and (t["won"], t["lost"]) == (3, 3) for t in middle)
    # Kreuz Bube and Karo Zehn are level on points and game points: the lot orders them.
    assert sorted(t["name"] for t in middle) == ["Karo Zehn", "Kreuz Bube"]
    assert sum(t["won"] for t in answer["teams"]) == 12  # 2 series x 4 x 3 / 2


def test_both_gives_a_shared_point_to_both(tmp_path, capsys):
    data = {"teams": TEAMS, "tie": "both", "series": [series()]}
    code, lines = run(capsys, "--matchday", matchday_file(tmp_path, data))
    assert code == 0
    assert [(t["won"], t["lost"]) for t in json.loads(lines[0])["teams"]] == [(3, 0)] * 4


def test_a_team_that_does_not_turn_up_gets_nothing(tmp_path, capsys):
    three = dict(TEAMS)
    data = {"teams": three, "series": [[table("A1", "B1", "C1"), table("A2", "B2", "C2")]]}
    code, lines = run(capsys, "--matchday", matchday_file(tmp_path, data))
    assert code == 0
    teams = {t["name"]: t for t in json.loads(lines[0])["teams"]}
    assert teams["Karo Zehn"] == {"name": "Karo Zehn", "series_points": [None], "game_points": 0, "won": 0, "lost": 3}
    assert teams["Kreuz Bube"]["won"] == 2  # 1 for the absent team, 1/2 + 1/2 for the two level ones


@pytest.mark.parametrize(
    ("data", "error"),
    [
        ({"teams": TEAMS, "series": [series([won_grand("A1")])]}, "series 1, table 1: game 1: declarer: A1 deals"),
        (
            {"teams": TEAMS, "series": [series(), [table("A1", "B1", "C1", "X9")]]},
            "series 2, table 1: players: X9 is in no team",
        ),
        (
            {"teams": TEAMS, "series": [[table("A1", "B1", "C1", "D1"), table("A1", "B2", "C2", "D2")]]},
            "series 1, table 2: players: A1 plays twice in this series",
        ),
        (
            {"teams": TEAMS, "series": [[table("A1", "A2", "C1", "D1")]]},
            "series 1, table 1: players: team-mates of Kreuz Bube may not share a table",
        ),
        ({"teams": TEAMS, "tie": "coin", "series": [series()]}, 'tie: must be "split"'),
        ({"teams": TEAMS, "series": []}, "series: must be a list"),
        ({"teams": TEAMS, "series": [{}]}, "series 1: must be a list of table sheets"),
        ({"teams": {"A": ["A1"]}, "series": [series()]}, "teams: must be an object of at least two teams"),
        ({"teams": {"A": ["X"], "B": ["X"]}, "series": [series()]}, "teams, B: X is listed twice"),
        ({"teams": TEAMS, "series": [series()], "venue": "x"}, "venue: unknown field"),
        ([], "match day: must be a JSON object"),
    ],
)
def test_errors_name_the_series_the_table_and_the_field(tmp_path, capsys, data, error):
    code, lines = run(capsys, "--matchday", matchday_file(tmp_path, data))
    assert code == 1
    assert json.loads(lines[0])["error"].startswith(error)


def test_a_match_day_that_is_not_json_exits_2(tmp_path, capsys):
    path = tmp_path / "matchday.json"
    path.write_text("{teams", encoding="utf-8")
    code, error = refused(capsys, "--matchday", str(path))
    assert code == 2 and "a match day is one JSON object" in error
