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

from skat.draw import Entrant, draw, table_sizes
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
