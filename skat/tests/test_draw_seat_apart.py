"""Team-mates seated apart by construction (skat/draw.py seat_apart): never at one table
(DOMAIN, "Structure of a tournament"), whatever order the table sizes come in, and no
player lost or seat left over."""

from __future__ import annotations

import pytest

from skat.draw import seat_apart, table_sizes_apart


def test_the_largest_teams_take_the_first_rows_so_a_table_of_three_first_still_parts_them():
    """Tables of 3, 4, 4 (the three first): seats taken row by row are tables 1 2 3 three
    times, then 2 3. Teams of three, largest first, fill the three full rows, one player a
    table; the two single players take the short fourth row. Smallest first, the third
    team would reach into the fourth row and sit twice at table 3."""
    teams = [["z"], ["y"], ["A1", "A2", "A3"], ["B1", "B2", "B3"], ["C1", "C2", "C3"]]
    tables = seat_apart(teams, [3, 4, 4])
    assert [len(table) for table in tables] == [3, 4, 4]
    for table in tables:
        assert len({player[0] for player in table}) == len(table), table
    assert tables == [["A1", "B1", "C1"], ["A2", "B2", "C2", "z"], ["A3", "B3", "C3", "y"]]


def test_a_pair_and_five_single_players_at_a_table_of_three_and_one_of_four():
    tables = seat_apart([["s1"], ["s2"], ["s3"], ["s4"], ["s5"], ["P1", "P2"]], [3, 4])
    assert not any({"P1", "P2"} <= set(table) for table in tables)
    assert tables[0][0] == "P1" and tables[1][0] == "P2"


def test_no_players_no_tables():
    assert seat_apart([], []) == []


@pytest.mark.parametrize(
    ("teams", "sizes"),
    [
        ([["A1", "A2"], ["B1", "B2"], ["C1", "C2", "C3"]], [3, 3]),  # one player too many
        ([["A1", "A2"], ["B1", "B2"], ["C1"]], [3, 3]),  # one seat left empty
    ],
)
def test_every_player_takes_exactly_one_seat_or_the_seating_is_refused(teams, sizes):
    """A player without a seat would be dropped from the series, an empty seat would make a
    table of two: both are errors, never a seating."""
    with pytest.raises(ValueError):
        seat_apart(teams, sizes)


@pytest.mark.parametrize(
    ("players", "teams", "sizes"),
    [
        # 16 players seat at four tables of four, too few for a team of five: five tables,
        # as many of four as 16 = 4 + 4 x 3 allows.
        (16, [5, 5, 5, 1], [4, 3, 3, 3, 3]),
        # 17 = 4 + 4 + 3 + 3 + 3: five tables for a team of five, two of them of four.
        (17, [5, 4, 4, 4], [4, 4, 3, 3, 3]),
        # 19 = 4 + 5 x 3: six tables for a team of six.
        (19, [6, 6, 6, 1], [4, 3, 3, 3, 3, 3]),
    ],
)
def test_more_tables_for_a_large_team_keep_as_many_fours_as_the_count_allows(players, teams, sizes):
    assert table_sizes_apart(players, teams) == sizes
    assert sum(sizes) == players and len(sizes) == max(teams)
