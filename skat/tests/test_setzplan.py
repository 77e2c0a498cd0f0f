"""The fixed seating plan of a match day (skat/setzplan.py), checked for every line-up of
up to four teams of three or four players (or absent) and one to four series."""

from __future__ import annotations

from itertools import product

import pytest

from skat.rules import RuleError
from skat.setzplan import _times, meetings, pattern, seating_plan

SIZES = (0, 3, 4)


def test_gf4_is_a_field():
    for a, b, c in product(range(4), repeat=3):
        assert _times(a, b) == _times(b, a)
        assert _times(a, b ^ c) == _times(a, b) ^ _times(a, c)
        assert _times(_times(a, b), c) == _times(a, _times(b, c))
    for a in range(1, 4):
        assert sorted(_times(a, b) for b in range(4)) == [0, 1, 2, 3]


def test_four_full_teams_meet_every_other_teams_player_exactly_once_in_four_series():
    plan = seating_plan([4, 4, 4, 4], 4)
    count = meetings(plan)
    assert len(count) == 6 * 16 and set(count.values()) == {1}
    assert all(len(tables) == 4 and all(len(t) == 4 for t in tables) for tables in plan)
    assert plan[0] == pattern(0)  # the first series: each team's player n at table n + 1


def _check(plan, sizes, series):
    assert len(plan) == series
    for tables in plan:
        seated = [seat for table in tables for seat in table]
        assert sorted(seated) == sorted((team, n) for team, size in enumerate(sizes) for n in range(size))
        for table in tables:
            assert len(table) in (3, 4) and len({team for team, _n in table}) == len(table)


#: Line-ups the construction cannot seat apart without a table of two, though the ordinary
#: draw may (it then seats the match day): three teams of three over two or more series,
#: and three short teams, or two, over four series.
NO_PLAN = {((0, 3, 3, 3), s) for s in (2, 3, 4)} | {((3, 3, 3, 4), 4), ((3, 3, 4, 4), 4)}


@pytest.mark.parametrize("series", [1, 2, 3, 4])
def test_every_line_up_of_up_to_four_teams_gets_a_plan_without_repeats_where_it_can(series):
    for sizes in product(SIZES, repeat=4):
        plan = seating_plan(sizes, series)
        present = sorted(size for size in sizes if size)
        players = sum(sizes)
        # Fewer than three teams, or three teams of 10 or 11 players, cannot sit apart.
        impossible = len(present) < 3 or (len(present) == 3 and players in (10, 11))
        if impossible or (tuple(sorted(sizes)), series) in NO_PLAN:
            assert plan is None, sizes
            continue
        assert plan is not None, sizes
        _check(plan, sizes, series)
        assert set(meetings(plan).values()) == {1}, sizes


def test_three_series_of_two_short_teams_have_no_table_of_two():
    plan = seating_plan([4, 3, 4, 3], 3)
    _check(plan, [4, 3, 4, 3], 3)
    assert sorted(len(t) for t in plan[0]) == [3, 3, 4, 4]


def test_fewer_teams_than_four_and_a_fifth_series():
    plan = seating_plan([4, 4, 4], 5)
    _check(plan, [4, 4, 4], 5)
    assert plan[4] == plan[0] and max(meetings(plan).values()) == 2


@pytest.mark.parametrize(
    ("sizes", "series", "message"),
    [
        ([], 3, "teams: a seating plan is for up to 4 teams of up to 4 players"),
        ([4, 4, 4, 4, 4], 3, "teams: "),
        ([4, 5, 4], 3, "teams: "),
        ([4, -1, 4], 3, "teams: "),
        ([4, 4, 4], 0, "series: a match day has at least one series"),
    ],
)
def test_what_is_no_match_day_is_refused(sizes, series, message):
    with pytest.raises(RuleError, match=message):
        seating_plan(sizes, series)


def test_two_players_a_team_find_no_plan():
    assert seating_plan([2, 2, 2, 2], 2) is None
