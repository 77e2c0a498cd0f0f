"""The card-point totals the engine derives from the pack (1.2.2), checked against an
oracle built another way.

``terms._sums_of_cards`` runs once, when the module is imported, so a test that only
reads ``HELD_POINTS`` cannot tell a wrong derivation from a right one under mutation
testing (make mutation imports the module before it switches a mutant on). These tests
call it.
"""

from __future__ import annotations

import itertools

from skat import terms

# 1.2.2: per suit ace 11, ten 10, king 4, queen 3, jack 2, nine, eight, seven 0; four suits.
CARD_VALUES = {11: 4, 10: 4, 4: 4, 3: 4, 2: 4, 0: 12}


def oracle() -> list[set[int]]:
    """``sums[n]``: the totals some n cards count, by how many cards of each value are taken."""
    sums: list[set[int]] = [set() for _ in range(sum(CARD_VALUES.values()) + 1)]
    values = sorted(CARD_VALUES)
    for taken in itertools.product(*(range(CARD_VALUES[value] + 1) for value in values)):
        sums[sum(taken)].add(sum(count * value for count, value in zip(taken, values, strict=True)))
    return sums


def test_the_pack_is_the_one_of_1_2_2():
    assert sorted(terms.PACK) == sorted(value for value, count in CARD_VALUES.items() for _ in range(count))
    assert terms.TOTAL_POINTS == 120


def test_the_sums_of_cards_agree_with_the_oracle():
    assert [set(totals) for totals in terms._sums_of_cards(terms.PACK)] == oracle()


def test_the_sums_of_cards_at_their_edges():
    sums = terms._sums_of_cards(terms.PACK)
    assert len(sums) == 33
    assert sums[0] == {0}  # no card counts nothing
    assert sums[32] == {120}  # the whole pack (1.2.2)
    assert max(sums[2]) == 22  # the skat: at most two aces (2.2.1)
    # The declarer's cards after t tricks: his 3t cards and the skat's 2 (2.2.1, 4.4.1).
    assert sums[2] == terms.HELD_POINTS[0]
    assert sums[32] == terms.HELD_POINTS[10]
    assert 1 not in set().union(*sums) and 119 not in set().union(*sums)


def test_the_sums_of_a_small_pack():
    # Three cards: a seven, a jack, an ace.
    assert terms._sums_of_cards((0, 2, 11)) == (
        frozenset({0}),
        frozenset({0, 2, 11}),
        frozenset({2, 11, 13}),
        frozenset({13}),
    )
