"""scoring/rules.py against the Skatordnung: the table 5.6.1, every combination of
contract, tops and announcements against an independent literal reading of 5.2-5.4,
the book's worked examples, properties, and every rejection path."""

from __future__ import annotations

import math
import re
from itertools import product
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.rules import (
    BASE_VALUES,
    GAME_KEYS,
    GAME_VALUES,
    MAX_MULTIPLIER,
    MIN_BID,
    NULL_VALUES,
    Contract,
    Game,
    Outcome,
    RuleError,
    evaluate,
    game_from_mapping,
    score,
)

SUITS = [Contract.DIAMONDS, Contract.HEARTS, Contract.SPADES, Contract.CLUBS]
TABLE_5_6_1 = Path(__file__).parent / "data" / "skatordnung_5_6_1.txt"


def value_of(**fields) -> Outcome:
    return evaluate(Game(**fields))


# --- 5.6.1: the table of game values -------------------------------------------------


def printed_table() -> list[tuple[int, str]]:
    """(value, multiplier) pairs as printed; the right-hand values have three digits."""
    pairs = []
    for line in TABLE_5_6_1.read_text(encoding="utf-8").splitlines():
        if line.startswith("#") or not line.strip():
            continue
        match = re.fullmatch(r"(\d+) = (.+?)(\d{3}) = (G?\d+)", line.strip())
        assert match, line
        pairs += [(int(match[1]), match[2]), (int(match[3]), match[4])]
    return pairs


NULL_NAMES = {"null": 23, "n.h.": 35, "n.o.": 46, "n.o.h": 59}


def consistent(value: int, multiplier: str) -> bool:
    if multiplier in NULL_NAMES:
        return NULL_NAMES[multiplier] == value
    if multiplier.startswith("G"):
        return value == 24 * int(multiplier[1:])
    return any(base * int(multiplier) == value for base in (9, 10, 11, 12))


def test_the_generated_values_are_exactly_the_printed_table():
    printed = printed_table()
    assert len(printed) == 80
    assert {value for value, _ in printed} == GAME_VALUES
    assert len(GAME_VALUES) == 63
    assert (min(GAME_VALUES), max(GAME_VALUES), MIN_BID) == (18, 264, 18)


def test_every_printed_pair_is_base_times_multipliers_but_one_erratum():
    # The reference prints "168 = 15": no base value times 15 is 168. Clubs 12 x 15 = 180
    # is the entry the column lacks (180 appears only as hearts 10 x 18). The value 168
    # itself is valid (clubs 12 x 14, grand 24 x 7), so the set of values is unaffected.
    wrong = [(v, m) for v, m in printed_table() if not consistent(v, m)]
    assert wrong == [(168, "15")]


# --- an independent literal reading of 5.2 to 5.4 -------------------------------------


def oracle(contract, tops, hand, sa, swa, ouvert, points, tricks, bid):
    """Straight from the text, levels as numbers: 0 simple, 1 schneider, 2 schwarz.

    Returns (won, value, score, overbid, multiplier) or "error" where the game cannot
    reach the bid at all (null: 3.4.4; suit/grand beyond its highest value).
    """
    if contract is Contract.NULL:
        value = {(False, False): 23, (True, False): 35, (False, True): 46, (True, True): 59}[(hand, ouvert)]
        if bid is not None and bid > value:
            return "error"
        won = tricks == 0
        return (won, value, value if won else -2 * value, False, None)
    announced = 2 if (swa or ouvert) else 1 if sa else 0  # 5.2.6
    made = 2 if tricks == 10 else 1 if points >= 90 else 0
    suffered = 2 if tricks == 0 else 1 if points <= 30 else 0
    won = points >= 61 and made >= announced  # 5.2.2, 5.2.5
    level = max(announced, made) if announced else max(made, suffered)  # 5.2.5 bullets
    multiplier = tops + 1 + level + int(hand) + announced + int(ouvert)  # 5.2.1, 5.3.2
    base = {"diamonds": 9, "hearts": 10, "spades": 11, "clubs": 12, "grand": 24}[contract.value]
    overbid = bid is not None and base * multiplier < bid  # 5.4.1
    if overbid:
        multiplier = math.ceil(bid / base)
        if multiplier > (18 if contract is not Contract.GRAND else 11):
            return "error"
        won = False
    value = base * multiplier
    return (won, value, value if won else -2 * value, overbid, multiplier)


OUTCOMES = [  # (declarer points, declarer tricks) as a scorekeeper could enter them
    (0, 0),
    (15, 0),
    (22, 0),
    (0, None),
    (15, 3),
    (30, None),
    (31, 4),
    (60, None),
    (61, None),
    (61, 6),
    (89, 7),
    (90, None),
    (90, 8),
    (119, 9),
    (120, 9),
    (120, None),
    (120, 10),
]
BIDS = [None, 18, 23, 24, 36, 48, 60, 72, 100, 120, 160, 198, 264]
ANNOUNCEMENTS = [  # (hand, schneider announced, schwarz announced, ouvert), legal combinations
    (False, False, False, False),
    (True, False, False, False),
    (True, True, False, False),
    (True, True, True, False),
    (True, False, True, False),  # schwarz announced implies schneider announced
    (True, False, False, True),  # ouvert implies both
    (True, True, True, True),
]


def test_every_suit_and_grand_combination_matches_the_reading_of_the_text():
    checked = 0
    for contract in [*SUITS, Contract.GRAND]:
        for tops, (hand, sa, swa, ouvert), (points, tricks), bid in product(
            range(1, (4 if contract is Contract.GRAND else 11) + 1), ANNOUNCEMENTS, OUTCOMES, BIDS
        ):
            if (swa or ouvert) and tricks is None:
                continue  # schwarz must be shown by the tricks (5.2.8): rejected, tested below
            game = Game(contract, tops, hand, sa, swa, ouvert, points, tricks, bid)
            expected = oracle(contract, tops, hand, sa, swa, ouvert, points, tricks, bid)
            if expected == "error":
                with pytest.raises(RuleError):
                    evaluate(game)
                continue
            outcome = evaluate(game)
            got = (outcome.won, outcome.value, outcome.score, outcome.overbid, outcome.multiplier)
            assert got == expected, game
            assert outcome.value in GAME_VALUES
            assert outcome.value == BASE_VALUES[contract] * outcome.multiplier
            checked += 1
    assert checked > 20_000


def test_every_null_combination_matches_the_reading_of_the_text():
    for hand, ouvert, tricks, bid in product([False, True], [False, True], range(11), BIDS):
        game = Game(Contract.NULL, hand=hand, ouvert=ouvert, declarer_tricks=tricks, bid=bid)
        expected = oracle(Contract.NULL, None, hand, False, False, ouvert, None, tricks, bid)
        if expected == "error":
            with pytest.raises(RuleError) as raised:
                evaluate(game)
            assert raised.value.field == "bid" and raised.value.paragraph == "3.4.4"
        else:
            outcome = evaluate(game)
            assert (outcome.won, outcome.value, outcome.score, outcome.overbid, outcome.multiplier) == expected


# --- the book's worked examples ---------------------------------------------------------


def test_5_6_1_lowest_and_highest_values():
    assert value_of(contract=Contract.DIAMONDS, tops=1, declarer_points=61).value == 18
    clubs = value_of(contract=Contract.CLUBS, tops=11, hand=True, ouvert=True, declarer_points=120, declarer_tricks=10)
    assert (clubs.won, clubs.value, clubs.multiplier) == (True, 216, 18)
    grand = value_of(contract=Contract.GRAND, tops=4, hand=True, ouvert=True, declarer_points=120, declarer_tricks=10)
    assert (grand.won, grand.value, grand.multiplier) == (True, 264, 11)


def test_5_1_2_null_values_won_and_lost():
    for (hand, ouvert), value in NULL_VALUES.items():
        won = value_of(contract=Contract.NULL, hand=hand, ouvert=ouvert, declarer_tricks=0)
        lost = value_of(contract=Contract.NULL, hand=hand, ouvert=ouvert, declarer_tricks=1)
        assert (won.won, won.value, won.score) == (True, value, value)
        assert (lost.won, lost.value, lost.score) == (False, value, -2 * value)
    assert sorted(NULL_VALUES.values()) == [23, 35, 46, 59]


def test_5_4_1_hearts_with_one_against_a_bid_of_50_is_overbid_minus_100():
    outcome = value_of(contract=Contract.HEARTS, tops=1, declarer_points=75, bid=50)
    assert (outcome.won, outcome.overbid, outcome.value, outcome.score, outcome.multiplier) == (
        False,
        True,
        50,
        -100,
        5,
    )


def test_5_4_2_hand_game_overbid_found_at_the_end():
    # Bid 36, hearts hand "without 3" that is really "with 1", 61 card points: -80.
    lost = value_of(contract=Contract.HEARTS, tops=1, hand=True, declarer_points=61, bid=36)
    assert (lost.won, lost.overbid, lost.value, lost.score) == (False, True, 40, -80)
    # With 90+ card points schneider justifies the bid: with 1, game 2, hand 3, schneider 4 = 40.
    won = value_of(contract=Contract.HEARTS, tops=1, hand=True, declarer_points=90, bid=36)
    assert (won.won, won.overbid, won.value, won.score, won.multiplier) == (True, False, 40, 40, 4)


def test_5_3_4_the_doubling_does_not_reach_the_bid():
    # Hearts with 1 (20) against a bid of 36: doubling 20 to 40 must not count;
    # the value is raised to 40 first and then doubled.
    outcome = value_of(contract=Contract.HEARTS, tops=1, declarer_points=70, bid=36)
    assert (outcome.value, outcome.score) == (40, -80)


def test_5_2_5_a_missed_announcement_counts_the_announced_level():
    # Spades hand with 2, schneider announced, 75 points: lost; counts schneider and announced.
    outcome = value_of(contract=Contract.SPADES, tops=2, hand=True, schneider_announced=True, declarer_points=75)
    assert (outcome.won, outcome.multiplier, outcome.value, outcome.score) == (False, 6, 66, -132)


def test_5_2_5_a_schneidered_declarer_counts_nothing_extra_after_an_announcement():
    announced = value_of(
        contract=Contract.SPADES, tops=2, hand=True, schneider_announced=True, declarer_points=20, declarer_tricks=0
    )
    # with 2, game 3, hand 4, schneider 5, announced 6 - not 7 for being schwarz himself.
    assert (announced.won, announced.multiplier, announced.schwarz) == (False, 6, False)
    # Without an announcement the same card play counts schneider and schwarz against him.
    plain = value_of(contract=Contract.SPADES, tops=2, hand=True, declarer_points=20, declarer_tricks=0)
    assert (plain.multiplier, plain.schneider, plain.schwarz) == (6, True, True)


def test_5_2_5_a_higher_level_than_announced_counts_too():
    outcome = value_of(
        contract=Contract.GRAND, tops=1, hand=True, schneider_announced=True, declarer_points=120, declarer_tricks=10
    )
    # with 1, game 2, hand 3, schneider 4, announced 5, schwarz 6.
    assert (outcome.won, outcome.multiplier, outcome.value) == (True, 6, 144)


def test_5_2_6_ouvert_needs_every_trick():
    missed = value_of(contract=Contract.CLUBS, tops=1, hand=True, ouvert=True, declarer_points=120, declarer_tricks=9)
    # Lost, but counted as if made: with 1, game, hand, schneider, announced, schwarz, announced, ouvert = 8.
    assert (missed.won, missed.multiplier, missed.value, missed.score) == (False, 8, 96, -192)


def test_5_2_8_schwarz_counts_only_when_the_tricks_show_it():
    unknown = value_of(contract=Contract.HEARTS, tops=1, declarer_points=120)
    shown = value_of(contract=Contract.HEARTS, tops=1, declarer_points=120, declarer_tricks=10)
    assert (unknown.multiplier, unknown.schwarz) == (3, False)
    assert (shown.multiplier, shown.schwarz) == (4, True)


def test_3_4_4_null_ouvert_against_a_bid_of_50_is_no_valid_announcement():
    with pytest.raises(RuleError) as raised:
        value_of(contract=Contract.NULL, ouvert=True, declarer_tricks=0, bid=50)
    assert raised.value.field == "bid"
    assert raised.value.paragraph == "3.4.4"
    assert "46" in raised.value.message


def test_wiki_overbid_example_clubs_then_hearts():
    # Bid 30 "without 2" in clubs, the club jack turns up in the skat: with 1, 24 < 30.
    clubs = value_of(contract=Contract.CLUBS, tops=1, declarer_points=70, bid=30)
    assert (clubs.overbid, clubs.value, clubs.score) == (True, 36, -72)
    # Declaring hearts instead loses only 60 ...
    hearts = value_of(contract=Contract.HEARTS, tops=1, declarer_points=70, bid=30)
    assert (hearts.overbid, hearts.value, hearts.score) == (True, 30, -60)
    # ... and schneider in clubs (with 1, game, schneider = 36) would justify the bid.
    schneider = value_of(contract=Contract.CLUBS, tops=1, declarer_points=95, bid=30)
    assert (schneider.won, schneider.value) == (True, 36)


def test_wiki_example_hearts_hand_schneider_announced_with_seven_is_110():
    outcome = value_of(
        contract=Contract.HEARTS, tops=7, hand=True, schneider_announced=True, declarer_points=95, bid=110
    )
    assert (outcome.won, outcome.value, outcome.multiplier) == (True, 110, 11)


def test_score_is_plus_value_or_minus_twice_value():
    assert (score(True, 48), score(False, 48)) == (48, -96)


def test_as_dict_has_exactly_the_evaluate_keys():
    outcome = value_of(contract=Contract.GRAND, tops=1, declarer_points=61)
    assert outcome.as_dict() == {"won": True, "value": 48, "score": 48, "overbid": False, "multiplier": 2}


# --- properties ---------------------------------------------------------------------------


@st.composite
def valid_games(draw) -> Game:
    contract = draw(st.sampled_from(list(Contract)))
    bid = draw(st.none() | st.sampled_from(sorted(GAME_VALUES)))
    if contract is Contract.NULL:
        hand, ouvert = draw(st.booleans()), draw(st.booleans())
        bid = None if bid is not None and bid > NULL_VALUES[(hand, ouvert)] else bid
        return Game(contract, hand=hand, ouvert=ouvert, declarer_tricks=draw(st.integers(0, 10)), bid=bid)
    tops = draw(st.integers(1, 4 if contract is Contract.GRAND else 11))
    hand, sa, swa, ouvert = draw(st.sampled_from(ANNOUNCEMENTS))
    tricks = draw(st.integers(0, 10))
    if tricks == 10:
        points = 120
    elif tricks == 0:
        points = draw(st.integers(0, 22))
    else:
        points = draw(st.integers(0, 120))
    if bid is not None and math.ceil(bid / BASE_VALUES[contract]) > MAX_MULTIPLIER[contract]:
        bid = None
    return Game(contract, tops, hand, sa, swa, ouvert, points, tricks, bid)


@given(valid_games())
def test_properties_of_every_valid_game(game):
    outcome = evaluate(game)
    assert outcome.value in GAME_VALUES
    assert outcome.score == (outcome.value if outcome.won else -2 * outcome.value)
    if game.bid is not None:
        assert outcome.value >= game.bid
    if outcome.overbid:
        assert not outcome.won
    if game.contract is Contract.NULL:
        assert outcome.multiplier is None
    else:
        assert outcome.value == BASE_VALUES[game.contract] * outcome.multiplier


@given(valid_games())
def test_a_won_game_is_never_worth_less_than_the_bid(game):
    outcome = evaluate(game)
    if outcome.won and game.bid is not None:
        assert outcome.value >= game.bid


ANYTHING = st.none() | st.booleans() | st.integers(-300, 300) | st.text(max_size=8) | st.floats(allow_nan=False)


@given(st.sampled_from([*list(Contract), "schafkopf", 3]), st.tuples(*[ANYTHING] * 8))
def test_evaluate_raises_only_rule_errors(contract, fields):
    try:
        evaluate(Game(contract, *fields))
    except RuleError as error:
        assert error.field in GAME_KEYS and "(" in str(error)


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-300, 300) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=6,
)


@given(st.dictionaries(st.sampled_from([*GAME_KEYS, "junk"]), JSON, max_size=10))
def test_game_from_mapping_raises_only_rule_errors(data):
    try:
        evaluate(game_from_mapping(data))
    except RuleError as error:
        assert str(error).startswith(f"{error.field}: ")


# --- every rejection path ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("fields", "field", "paragraph"),
    [
        ({"contract": "schafkopf"}, "contract", "2.1.1"),
        ({"contract": Contract.GRAND, "tops": 1, "declarer_points": 61, "hand": 1}, "hand", "5.2.1"),
        ({"contract": Contract.GRAND, "tops": True, "declarer_points": 61}, "tops", "2.4.3"),
        ({"contract": Contract.GRAND, "tops": 1, "declarer_points": 61.0}, "declarer_points", "1.2.2"),
        ({"contract": Contract.GRAND, "tops": 1, "declarer_points": 61, "bid": 19}, "bid", "5.6.1"),
        ({"contract": Contract.GRAND, "tops": 1, "declarer_points": 121}, "declarer_points", "1.2.2"),
        ({"contract": Contract.GRAND, "tops": 1, "declarer_points": -1}, "declarer_points", "1.2.2"),
        (
            {"contract": Contract.GRAND, "tops": 1, "declarer_points": 61, "declarer_tricks": 11},
            "declarer_tricks",
            "4.4.1",
        ),
        (
            {"contract": Contract.GRAND, "tops": 1, "declarer_points": 110, "declarer_tricks": 10},
            "declarer_tricks",
            "5.2.4",
        ),
        (
            {"contract": Contract.GRAND, "tops": 1, "declarer_points": 23, "declarer_tricks": 0},
            "declarer_points",
            "2.2.1",
        ),
        ({"contract": Contract.NULL, "tops": 1, "declarer_tricks": 0}, "tops", "2.4.3"),
        (
            {"contract": Contract.NULL, "schneider_announced": True, "hand": True, "declarer_tricks": 0},
            "schneider_announced",
            "2.1.3",
        ),
        (
            {"contract": Contract.NULL, "schwarz_announced": True, "hand": True, "declarer_tricks": 0},
            "schwarz_announced",
            "2.1.3",
        ),
        ({"contract": Contract.NULL}, "declarer_tricks", "5.2.7"),
        ({"contract": Contract.NULL, "declarer_tricks": 0, "bid": 24}, "bid", "3.4.4"),
        ({"contract": Contract.GRAND, "declarer_points": 61}, "tops", "2.4.2"),
        ({"contract": Contract.GRAND, "tops": 5, "declarer_points": 61}, "tops", "2.4.3"),
        ({"contract": Contract.HEARTS, "tops": 12, "declarer_points": 61}, "tops", "2.4.3"),
        ({"contract": Contract.HEARTS, "tops": 0, "declarer_points": 61}, "tops", "2.4.1"),
        (
            {"contract": Contract.HEARTS, "tops": 1, "schneider_announced": True, "declarer_points": 95},
            "schneider_announced",
            "3.4.4",
        ),
        (
            {
                "contract": Contract.HEARTS,
                "tops": 1,
                "schwarz_announced": True,
                "declarer_points": 120,
                "declarer_tricks": 10,
            },
            "schwarz_announced",
            "3.4.4",
        ),
        (
            {"contract": Contract.HEARTS, "tops": 1, "ouvert": True, "declarer_points": 120, "declarer_tricks": 10},
            "ouvert",
            "5.2.6",
        ),
        ({"contract": Contract.HEARTS, "tops": 1}, "declarer_points", "5.2.2"),
        (
            {"contract": Contract.HEARTS, "tops": 1, "hand": True, "schwarz_announced": True, "declarer_points": 120},
            "declarer_tricks",
            "5.2.8",
        ),
        (
            {"contract": Contract.HEARTS, "tops": 1, "hand": True, "ouvert": True, "declarer_points": 120},
            "declarer_tricks",
            "5.2.8",
        ),
        ({"contract": Contract.DIAMONDS, "tops": 1, "declarer_points": 61, "bid": 180}, "bid", "3.4.2"),
    ],
)
def test_every_rejection_names_its_field_and_paragraph(fields, field, paragraph):
    with pytest.raises(RuleError) as raised:
        evaluate(Game(**fields))
    assert raised.value.field == field
    assert paragraph in raised.value.paragraph
    assert str(raised.value) == f"{field}: {raised.value.message} ({raised.value.paragraph})"
    assert raised.value.rule_text.startswith(raised.value.paragraph + ": ")


def test_the_grand_tops_message_reads_as_the_issue_states():
    with pytest.raises(RuleError) as raised:
        value_of(contract=Contract.GRAND, tops=5, declarer_points=70)
    assert str(raised.value) == "tops: a grand has at most 4 tops, not 5 (2.4.3)"


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"tops": 1}, "contract"),
        ({"contract": 7}, "contract"),
        ({"contract": "skat"}, "contract"),
        ({"contract": "grand", "colour": "red"}, "colour"),
        ({"contract": "grand", "hand": "yes"}, "hand"),
        ({"contract": "grand", "tops": "2"}, "tops"),
        ({"contract": "grand", "bid": True}, "bid"),
        ({"contract": "grand", "declarer_points": 60.5}, "declarer_points"),
    ],
)
def test_game_from_mapping_rejects_what_json_can_get_wrong(data, field):
    with pytest.raises(RuleError) as raised:
        game_from_mapping(data)
    assert raised.value.field == field


def test_game_from_mapping_accepts_defaults_and_loose_case_and_extra_keys_the_caller_reads():
    game = game_from_mapping({"contract": " Grand ", "tops": 2, "declarer_points": 80})
    assert game == Game(Contract.GRAND, tops=2, declarer_points=80)
    assert game_from_mapping({"contract": "null", "declarer": "A"}, extra_keys=frozenset({"declarer"})).contract == (
        Contract.NULL
    )


def test_contract_properties():
    assert Contract.NULL.is_null and not Contract.GRAND.is_null
    assert Contract.HEARTS.is_suit and not Contract.GRAND.is_suit and not Contract.NULL.is_suit
