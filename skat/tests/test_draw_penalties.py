"""The pair penalties the draw weighs (skat/draw.py conflicts): each earlier meeting counts
(``met`` lists a pair once per earlier meeting), a club shared adds to a team shared or a
meeting, and a player listed as having met himself is ignored without losing the rest.
Team-mates never at one table, players who met and club-mates apart where the draw can
(DOMAIN, "Structure of a tournament"); the refusal of a player twice in full (3.1.1)."""

from __future__ import annotations

import pytest

from skat.draw import CLUB_WEIGHT, MET_WEIGHT, TEAM_WEIGHT, Entrant, conflicts, draw
from skat.rules import RuleError


def test_every_earlier_meeting_of_a_pair_counts_both_ways():
    weigh = conflicts([Entrant(1), Entrant(2), Entrant(3)], met=[(1, 2), (2, 1), (1, 2), (2, 3)])
    assert weigh.table([1, 2]) == 3 * MET_WEIGHT
    assert weigh.against(2, [1]) == weigh.against(1, [2]) == 3 * MET_WEIGHT
    assert weigh.against(3, [2]) == weigh.against(2, [3]) == MET_WEIGHT
    assert weigh.table([1, 2, 3]) == 4 * MET_WEIGHT


def test_a_club_shared_adds_to_a_team_shared_and_to_a_meeting():
    field = [Entrant("a", club="SC", team="T"), Entrant("b", club="SC", team="T"), Entrant("c", club="SC")]
    weigh = conflicts(field, met=[("a", "c")])
    assert weigh.table(["a", "b"]) == TEAM_WEIGHT + CLUB_WEIGHT
    assert weigh.table(["a", "c"]) == MET_WEIGHT + CLUB_WEIGHT
    assert weigh.table(["b", "c"]) == CLUB_WEIGHT


def test_a_player_listed_as_having_met_himself_is_ignored_and_the_rest_still_count():
    """Six players at two tables of three, each pair met before (listed after a pair of one
    player with himself): three repeat meetings at each table."""
    met = [(0, 0)] + [(a, b) for a in range(6) for b in range(a + 1, 6)]
    result = draw([Entrant(i) for i in range(6)], seed=3, met=met)
    assert result.repeat_meetings == 6
    assert conflicts([Entrant(0), Entrant(1)], met=[(0, 0), (0, 1)]).table([0, 1]) == MET_WEIGHT


def test_a_player_twice_is_refused_in_full():
    with pytest.raises(RuleError) as refused:
        draw([Entrant(1), Entrant(1), Entrant(2), Entrant(3)], seed=1)
    assert str(refused.value) == "players: a player is registered twice for this series (3.1.1)"
    assert (refused.value.field, refused.value.paragraph) == ("players", "3.1.1")


@pytest.mark.parametrize("players", [0, 1, 2, 5])
def test_a_field_that_cannot_be_seated_is_refused_in_full(players):
    """n = 4a + 3b has no solution for 1, 2 and 5 (and 0 is no field): 3.2.7."""
    with pytest.raises(RuleError) as refused:
        draw([Entrant(i) for i in range(players)], seed=1)
    assert str(refused.value) == (
        f"players: {players} players cannot be seated at tables of three and four; "
        "add or withdraw players (3, 4 and every number from 6 work) (3.2.7)"
    )
    assert (refused.value.field, refused.value.paragraph) == ("players", "3.2.7")


def test_a_seeding_that_misses_a_player_is_refused_in_full():
    with pytest.raises(RuleError) as refused:
        draw([Entrant(i) for i in range(8)], seed=1, ranking=[0, 1, 2, 3, 4, 5, 6, 6])
    assert str(refused.value) == "ranking: the seeding must rank every player of the series exactly once (3.1.1)"
    assert (refused.value.field, refused.value.paragraph) == ("ranking", "3.1.1")


def test_meetings_that_cannot_be_avoided_are_reported_once_per_pair():
    """Six players of one team and one club, each pair met before: two tables of three,
    three pairs at each, so 6 team, 6 club and 6 repeat meetings, whatever the seed."""
    field = [Entrant(i, club="SC", team="T") for i in range(6)]
    met = [(a, b) for a in range(6) for b in range(a + 1, 6)] * 2
    for seed in range(3):
        result = draw(field, seed=seed, met=met)
        assert (result.team_meetings, result.club_meetings, result.repeat_meetings) == (6, 6, 6)
