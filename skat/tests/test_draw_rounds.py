"""The draw's swap search goes on round after round while a round still lowers the
penalty (skat/draw.py): club-mates are kept apart where the field allows (DOMAIN,
"Structure of a tournament"), also where one round of swaps leaves a pair together."""

from __future__ import annotations

from skat.draw import draw
from skat.tests.test_draw import entrants


def test_club_mates_are_parted_even_where_one_round_of_swaps_is_not_enough():
    """28 players of 7 clubs of 4: seven tables of four with one player of each club exist.
    With seed 0 (and 32 players of 8 clubs, seed 7) one round of swaps leaves two club-mates
    together; the next round parts them."""
    for count, clubs, seed in ((28, 7, 0), (32, 8, 7)):
        field = entrants(count, clubs=clubs)
        assert draw(field, seed=seed, max_rounds=1).club_meetings == 1
        result = draw(field, seed=seed)
        assert result.club_meetings == 0
        for table in result.tables:
            assert len({player % clubs for player in table}) == len(table)


def test_a_field_without_conflicts_needs_no_swap():
    """Nobody shares a club or a team and nobody met before: no swap is made or reported."""
    for seed in range(5):
        assert draw(entrants(30), seed=seed).swaps == 0
