"""Card points against tricks (1.2.2): the message says why they do not fit.

Mutation testing (make mutation) found ``or low == high`` in validation.py unpinned: it
changes only which of two messages a refusal gives, so these tests assert the message.
"""

from __future__ import annotations

import pytest

from skat.rules import Contract, Game, RuleError, evaluate


def refusal(points: int, tricks: int) -> str:
    with pytest.raises(RuleError) as raised:
        evaluate(Game(Contract.GRAND, tops=1, declarer_points=points, declarer_tricks=tricks))
    assert (raised.value.field, raised.value.paragraph) == ("declarer_points", "1.2.2")
    return raised.value.message


def test_every_trick_holds_exactly_120_so_no_other_count_fits():
    """All ten tricks and the skat are the whole pack: 120, one count only; 100 is not a
    range's gap but the one count missed, said as such (not "count 120 to 120")."""
    assert refusal(100, 10) == (
        "card points 100 and tricks 10 do not fit: the declarer's tricks and the skat are 32 cards, "
        "and no 32 cards of the pack count exactly 100"
    )


def test_points_outside_what_the_cards_can_count_name_the_range():
    assert refusal(100, 0) == (
        "card points 100 and tricks 0 do not fit: the declarer's tricks and the skat are 2 cards, "
        "which count 0 to 22 card points"
    )


def test_a_gap_inside_the_range_is_no_such_count():
    """Nine tricks and the skat (29 cards) leave out three cards, which count 0 to 33
    but never 1: so 119 (120 - 1) cannot be held."""
    assert refusal(119, 9) == (
        "card points 119 and tricks 9 do not fit: the declarer's tricks and the skat are 29 cards, "
        "and no 29 cards of the pack count exactly 119"
    )
