"""Every refusal of a game (skat/validation.py) in full: the field, the words and the
paragraph, as the phone, the office grid and ``python -m skat`` show them. The engine's
other tests read a few words of each; mutation testing (make mutation) showed that the
rest of a message, or its paragraph, could change unseen."""

from __future__ import annotations

import pytest

from skat.rules import Contract, Game, RuleError, evaluate, game_from_mapping

FIELDS = (
    "contract, tops, declarer_points, declarer_tricks, bid, hand, schneider_announced, schwarz_announced, ouvert, "
    "irregularity"
)
PARTY = "is not a party; an irregularity is committed by the declarer or the opponents (4.1.4)"
CONTRACTS = "diamonds, hearts, spades, clubs, grand, null"
GRAND = {"contract": "grand", "tops": 1}
SCHWARZ = (
    "declarer_tricks: required when schwarz is announced or ouvert is played and the declarer has all 120 card "
    "points: only all 10 tricks make schwarz (5.2.8)"
)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (GRAND | {"declarer_points": 61, "colour": 1}, f"colour: unknown field; game fields are {FIELDS} (5.5.2)"),
        ({"": 1, "contract": "grand"}, f"'': unknown field; game fields are {FIELDS} (5.5.2)"),
        ({"tops": 1}, f"contract: required: one of {CONTRACTS} (2.1.1)"),
        ({"contract": 5}, 'contract: must be a contract name such as "hearts" (2.1.1)'),
        ({"contract": "green"}, f"contract: 'green' is not a contract; choose one of {CONTRACTS} (2.1.1)"),
        ({"contract": "grand", "hand": 1}, "hand: must be true or false (5.2.1)"),
        ({"contract": "grand", "tops": "1"}, "tops: must be a whole number (2.4.3)"),
        ({"contract": "grand", "tops": True}, "tops: must be a whole number (2.4.3)"),
        ({"contract": "grand", "bid": 1.5}, "bid: must be a whole number (3.3.2)"),
        ({"contract": "grand", "declarer_tricks": "0"}, "declarer_tricks: must be a whole number (4.4.1)"),
        (
            {"contract": "grand", "irregularity": "referee"},
            'irregularity: must be "declarer" or "opponents": the party that committed it (4.1.4)',
        ),
        (
            {"contract": "grand", "irregularity": 1},
            'irregularity: must be "declarer" or "opponents": the party that committed it (4.1.4)',
        ),
        (
            GRAND | {"declarer_points": 61, "bid": 19},
            "bid: 19 is not a game value; bids are game values from 18 to 264 (3.3.2, 5.6.1)",
        ),
        (GRAND | {"declarer_points": 121}, "declarer_points: 121 is not between 0 and 120 card points (1.2.2)"),
        (GRAND | {"declarer_points": -1}, "declarer_points: -1 is not between 0 and 120 card points (1.2.2)"),
        (
            GRAND | {"declarer_points": 61, "declarer_tricks": 11},
            "declarer_tricks: 11 is not between 0 and 10 tricks (4.4.1)",
        ),
        (
            GRAND | {"declarer_points": 61, "declarer_tricks": -1},
            "declarer_tricks: -1 is not between 0 and 10 tricks (4.4.1)",
        ),
        (
            GRAND | {"declarer_points": 1},
            "declarer_points: card points 1: no cards of the pack count exactly that many "
            "(cards count 0, 2, 3, 4, 10, 11) (1.2.2)",
        ),
        (
            GRAND | {"declarer_points": 1, "declarer_tricks": 5},
            "declarer_points, declarer_tricks: card points 1 and tricks 5 do not fit: the declarer's tricks and the "
            "skat are 17 cards, which count 11 to 114 card points (1.2.2)",
        ),
        (
            GRAND | {"declarer_points": 119, "declarer_tricks": 10},
            "declarer_points, declarer_tricks: card points 119 and tricks 10 do not fit: the declarer's tricks and "
            "the skat are 32 cards, and no 32 cards of the pack count exactly 119 (1.2.2)",
        ),
        ({"contract": "null", "tops": 1, "declarer_tricks": 0}, "tops: null games have no tops (2.4.3)"),
        (
            {"contract": "null", "schneider_announced": True, "declarer_tricks": 0},
            "schneider_announced: a null game cannot announce schneider or schwarz (2.1.3)",
        ),
        (
            {"contract": "null", "schwarz_announced": True, "declarer_tricks": 0},
            "schwarz_announced: a null game cannot announce schneider or schwarz (2.1.3)",
        ),
        (
            {"contract": "null"},
            "declarer_tricks: required for a null game: the declarer wins by losing every trick (5.2.7)",
        ),
        ({"contract": "grand"}, "tops: required for a grand: count the tops played with or without (2.4.2)"),
        ({"contract": "hearts"}, "tops: required for a suit game: count the tops played with or without (2.4.2)"),
        ({"contract": "grand", "tops": 5}, "tops: a grand has at most 4 tops, not 5 (2.4.3)"),
        ({"contract": "clubs", "tops": 12}, "tops: a suit game has at most 11 tops, not 12 (2.4.3)"),
        (
            {"contract": "clubs", "tops": 0},
            "tops: a suit game is played with or without at least 1 top, not 0 (2.4.1)",
        ),
        ({"contract": "grand", "tops": 0}, "tops: a grand is played with or without at least 1 top, not 0 (2.4.1)"),
        (
            GRAND | {"schneider_announced": True, "declarer_points": 90},
            "schneider_announced: schneider announced can only be played in a hand game (3.4.4)",
        ),
        (
            GRAND | {"schwarz_announced": True, "declarer_points": 90},
            "schwarz_announced: schwarz announced can only be played in a hand game (3.4.4)",
        ),
        (GRAND | {"ouvert": True, "declarer_points": 90}, "ouvert: ouvert can only be played in a hand game (5.2.6)"),
        (GRAND, "declarer_points: required for a grand: the declarer's card points with the skat (5.2.2)"),
        (
            {"contract": "hearts", "tops": 1},
            "declarer_points: required for a suit game: the declarer's card points with the skat (5.2.2)",
        ),
        (GRAND | {"hand": True, "schwarz_announced": True, "declarer_points": 120}, SCHWARZ),
        (GRAND | {"hand": True, "ouvert": True, "declarer_points": 120}, SCHWARZ),
    ],
)
def test_a_game_the_rules_do_not_allow_is_refused_in_full(data, message):
    with pytest.raises(RuleError) as raised:
        evaluate(game_from_mapping(data))
    assert str(raised.value) == message


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"contract": "green"}, f"contract: 'green' is not a contract; choose one of {CONTRACTS} (2.1.1)"),
        ({"hand": 1}, "hand: must be true or false (5.2.1)"),
        ({"tops": 1.0}, "tops: must be a whole number (2.4.3)"),
        ({"declarer_points": True}, "declarer_points: must be a whole number (1.2.2)"),
        (
            {"irregularity": "referee"},
            f"irregularity: 'referee' {PARTY}",
        ),
        (
            {"irregularity": 1},
            f"irregularity: 1 {PARTY}",
        ),
    ],
)
def test_a_game_built_in_code_is_checked_as_strictly(fields, message):
    """A Game made by a caller (not read from JSON) meets the same checks and words."""
    with pytest.raises(RuleError) as raised:
        evaluate(Game(**({"contract": Contract.GRAND, "tops": 1, "declarer_points": 61} | fields)))
    assert str(raised.value) == message


def test_a_contract_name_is_read_without_case_or_spaces():
    assert evaluate(game_from_mapping({"contract": " Grand ", "tops": 1, "declarer_points": 61})).score == 48
