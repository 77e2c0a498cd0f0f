"""The draw: table sizes for 3..3000 players, reproducibility, and the constraints."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from itertools import combinations
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from skat.draw import Entrant, draw, seat_apart, table_sizes, table_sizes_apart
from skat.rules import RuleError


@pytest.mark.parametrize("players", [0, 1, 2, 5])
def test_five_or_fewer_than_three_players_cannot_be_seated(players):
    with pytest.raises(RuleError) as raised:
        table_sizes(players)
    assert raised.value.field == "players"
    assert "3.2.7" in str(raised.value)


@pytest.mark.parametrize(
    ("players", "sizes"),
    [
        (3, [3]),
        (4, [4]),
        (6, [3, 3]),
        (7, [4, 3]),
        (8, [4, 4]),
        (9, [3, 3, 3]),
        (13, [4, 3, 3, 3]),
        (14, [4, 4, 3, 3]),
    ],
)
def test_small_fields(players, sizes):
    assert table_sizes(players) == sizes


def test_every_size_from_3_to_3000_seats_everybody_with_most_tables_of_four():
    for players in [3, 4, *range(6, 3001)]:
        sizes = table_sizes(players)
        assert sum(sizes) == players
        assert set(sizes) <= {3, 4}
        assert sizes.count(3) <= 3, "four tables of three would make three tables of four"
        assert sizes == sorted(sizes, reverse=True), "tables of three come last"


def entrants(count: int, clubs: int | None = None, team_size: int = 0, teams: int = 0) -> list[Entrant]:
    return [
        Entrant(
            id=i,
            club=None if clubs is None else i % clubs,
            team=(i // team_size) if team_size and i < team_size * teams else None,
        )
        for i in range(count)
    ]


def seated(result) -> list[int]:
    return sorted(p for table in result.tables for p in table)


@given(st.integers(min_value=3, max_value=400).filter(lambda n: n != 5), st.integers(min_value=0, max_value=2**31))
def test_the_draw_seats_every_player_exactly_once(players, seed):
    result = draw(entrants(players), seed=seed)
    assert seated(result) == list(range(players))
    assert [len(t) for t in result.tables] == table_sizes(players)


def test_the_same_seed_gives_the_same_draw_and_another_seed_another():
    field = entrants(60, clubs=10)
    assert draw(field, seed=42).tables == draw(field, seed=42).tables
    assert draw(field, seed=42).tables != draw(field, seed=43).tables


def named_field() -> list[Entrant]:
    """60 players with clubs and teams named as the office names them: strings, whose hash
    (and so the order of a set of them) changes from one process to the next."""
    return [
        Entrant(id=e.id, club=f"SC {e.club}", team=None if e.team is None else f"Team {e.team}")
        for e in entrants(60, clubs=10, team_size=3, teams=6)
    ]


DRAW_IN_A_CHILD = """
import json
from skat.draw import draw
from skat.tests.test_draw import named_field
print(json.dumps(draw(named_field(), seed=42).tables))
"""


def test_the_same_seed_gives_the_same_draw_in_another_process():
    """A seed is published so anyone can redo the draw: a second process (with another
    string hash seed, so set and dict orders of strings differ) must draw the same tables."""
    here = [list(table) for table in draw(named_field(), seed=42).tables]
    root = Path(__file__).resolve().parents[2]
    for hash_seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed, "PYTHONPATH": str(root)}
        child = subprocess.run(
            [sys.executable, "-c", DRAW_IN_A_CHILD], capture_output=True, text=True, env=env, cwd=root, check=True
        )
        assert json.loads(child.stdout) == here, hash_seed


def test_club_mates_are_kept_apart_when_the_field_allows():
    # 24 players from 6 clubs of 4: six tables of four with no two club-mates exist.
    field = entrants(24, clubs=6)
    for seed in range(20):
        result = draw(field, seed=seed)
        assert result.club_meetings == 0
        for table in result.tables:
            assert len({p % 6 for p in table}) == len(table)


def test_team_mates_never_share_a_table():
    field = entrants(48, team_size=4, teams=12)  # everybody is in a team of four
    for seed in range(10):
        result = draw(field, seed=seed)
        assert result.team_meetings == 0
        for table in result.tables:
            assert len({p // 4 for p in table}) == 4


def test_a_second_series_avoids_the_first_series_meetings():
    field = entrants(96, clubs=12)
    first = draw(field, seed=1)
    met = [pair for table in first.tables for pair in combinations(table, 2)]
    second = draw(field, seed=2, met=met)
    assert second.repeat_meetings == 0
    met_pairs = {frozenset(pair) for pair in met}
    for table in second.tables:
        assert not any(frozenset(pair) in met_pairs for pair in combinations(table, 2))


def test_unavoidable_meetings_are_reported():
    # Six players at two tables of three, and all of them met everybody before.
    field = entrants(6)
    met = list(combinations(range(6), 2))
    result = draw(field, seed=3, met=met)
    assert result.repeat_meetings == 6  # 3 pairs at each table


def test_a_seeded_draw_puts_the_best_players_together():
    field = entrants(40)
    ranking = list(reversed(range(40)))  # player 39 is best
    result = draw(field, seed=5, ranking=ranking)
    assert sorted(result.tables[0]) == [36, 37, 38, 39]
    assert sorted(result.tables[-1]) == [0, 1, 2, 3]


def test_a_seeded_draw_separates_team_mates_even_far_from_their_rank():
    field = entrants(40, team_size=4, teams=10)
    result = draw(field, seed=5, ranking=list(range(40)))  # the ranking groups whole teams
    assert result.team_meetings == 0


def test_a_seeded_draw_needs_every_player_ranked_once():
    with pytest.raises(RuleError) as raised:
        draw(entrants(8), seed=1, ranking=[0, 1, 2, 3, 4, 5, 6, 6])
    assert raised.value.field == "ranking"


def test_a_player_twice_is_refused():
    with pytest.raises(RuleError) as raised:
        draw([Entrant(1), Entrant(1), Entrant(2), Entrant(3)], seed=1)
    assert raised.value.field == "players"


def test_a_3000_player_field_with_clubs_teams_and_history():
    rng = random.Random(11)
    field = [Entrant(i, club=rng.randrange(200), team=i // 4 if i < 800 else None) for i in range(3000)]
    first = draw(field, seed=1)
    met = [pair for table in first.tables for pair in combinations(table, 2)]
    second = draw(field, seed=2, met=met)
    assert seated(second) == list(range(3000))
    assert second.team_meetings == 0
    assert second.repeat_meetings == 0
    assert second.club_meetings <= 5


# A match day a team does not turn up to: three teams of four (team-mates never share a table).


def _teams_of(tables, entrants):
    team = {e.id: e.team for e in entrants}
    return [[team[p] for p in players] for players in tables]


def test_three_teams_of_four_sit_apart_at_four_tables_of_three():
    entrants = [Entrant(f"{t}{n}", team=t) for t in "ABC" for n in range(1, 5)]
    for seed in range(20):
        result = draw(entrants, seed=seed)
        assert sorted(len(t) for t in result.tables) == [3, 3, 3, 3]
        assert result.team_meetings == 0
        assert all(sorted(teams) == ["A", "B", "C"] for teams in _teams_of(result.tables, entrants))


def test_when_the_swaps_find_no_seating_apart_it_is_built():
    """No swap round at all (``max_rounds=0``): the seating apart is built, not searched."""
    entrants = [Entrant(f"{t}{n}", team=t) for t in "ABCD" for n in range(1, 5)] + [Entrant("solo")]
    entrants += [Entrant(f"E{n}", team="E") for n in range(1, 3)]
    result = draw(entrants, seed=3, max_rounds=0)
    assert result.team_meetings == 0 and sorted(map(len, result.tables)) == [3, 4, 4, 4, 4]


def test_a_team_larger_than_a_third_of_the_field_keeps_the_usual_tables():
    entrants = [Entrant(f"A{n}", team="A") for n in range(1, 5)] + [Entrant(f"B{n}", team="B") for n in range(5)]
    result = draw(entrants, seed=1, max_rounds=0)
    assert sorted(map(len, result.tables)) == [3, 3, 3] and result.team_meetings > 0


@pytest.mark.parametrize(
    ("players", "teams", "sizes"),
    [
        (12, [4, 4, 4], [3, 3, 3, 3]),
        (16, [4, 4, 4, 4], [4, 4, 4, 4]),
        (13, [4, 4, 4, 1], [4, 3, 3, 3]),
        (15, [5, 5, 5], [3, 3, 3, 3, 3]),
        (9, [4, 4, 1], [3, 3, 3]),
        (10, [], [4, 3, 3]),
    ],
)
def test_table_sizes_apart(players, teams, sizes):
    assert table_sizes_apart(players, teams) == sizes


def test_seat_apart_deals_each_team_over_different_tables():
    teams = [["A1", "A2", "A3", "A4"], ["B1", "B2", "B3"], ["C1", "C2", "C3", "C4"], ["D1"]]
    tables = seat_apart(teams, [3, 3, 3, 3])
    assert all(len({p[0] for p in table}) == len(table) for table in tables)
