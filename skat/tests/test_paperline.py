"""Reading one typed line of a paper list (scoring/paperline.py): every letter, every refusal."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skat.paperline import CONTRACT_LETTERS, FLAG_LETTERS, PaperLine, parse_line
from skat.rules import Contract, RuleError

#: A refusal's paragraph, as the engine cites them: "(5.5.1)" or "(3.3.2, 5.6.1)".
PARAGRAPH = re.compile(r"\(\d+(\.\d+)+(, \d+(\.\d+)+)*\)$")


def test_a_simple_deal_is_seat_letter_tops_and_points():
    assert parse_line("1h2 75") == PaperLine(
        declarer_seat=1, contract="hearts", tops_kind="with", tops=2, declarer_points=75
    )


def test_a_simple_deal_needs_at_most_8_keystrokes_with_enter():
    assert len("1h2 75") + 1 <= 8
    assert len("4x11 61") + 1 <= 8


@pytest.mark.parametrize(
    ("letter", "contract"),
    [
        ("k", Contract.CLUBS),
        ("h", Contract.HEARTS),
        ("p", Contract.SPADES),
        ("x", Contract.DIAMONDS),
        ("g", Contract.GRAND),
        ("n", Contract.NULL),
        ("c", Contract.CLUBS),
        ("s", Contract.SPADES),
        ("d", Contract.DIAMONDS),
    ],
)
def test_every_contract_letter_german_and_english(letter, contract):
    assert CONTRACT_LETTERS[letter] is contract
    line = parse_line(f"2{letter}1 70" if not contract.is_null else f"2{letter}")
    assert line.contract == contract.value
    assert line.declarer_seat == 2


def test_capitals_and_spaces_do_not_matter():
    assert parse_line("  1  H2   75 ") == parse_line("1h2 75") == parse_line("1 h2 75")


def test_tops_with_and_without():
    assert (parse_line("1k+3 70").tops_kind, parse_line("1k+3 70").tops) == ("with", 3)
    assert (parse_line("1k-3 70").tops_kind, parse_line("1k-3 70").tops) == ("without", 3)
    assert (parse_line("1k11 70").tops_kind, parse_line("1k11 70").tops) == ("with", 11)


def test_a_suit_or_grand_without_tops_is_refused_naming_the_letter_and_the_letters():
    """A paper line without tops: "2x 70" was "tops: 2.4.2: required"; x is diamonds (Karo), and the line
    says so, with where the tops go and every contract letter."""
    with pytest.raises(RuleError) as raised:
        parse_line("2x 70")
    assert raised.value.field == "tops" and raised.value.paragraph == "2.4.2"
    assert raised.value.message.startswith("x is Diamonds: its tops follow the letter directly, e.g. x2")
    assert "x/d diamonds (Karo), g grand, n null" in raised.value.message
    assert parse_line("2n 0").declarer_points == 0  # null has no tops (2.4.3)


@pytest.mark.parametrize(
    ("letter", "field"),
    [("h", "hand"), ("s", "schneider_announced"), ("z", "schwarz_announced"), ("o", "ouvert")],
)
def test_every_flag_letter(letter, field):
    assert FLAG_LETTERS[letter] == field
    assert getattr(parse_line(f"1g1{letter} 95"), field) is True


def test_flags_combine():
    line = parse_line("1g+4hsz 120/10")
    assert (line.hand, line.schneider_announced, line.schwarz_announced, line.ouvert) == (True, True, True, False)
    assert (line.declarer_points, line.declarer_tricks) == (120, 10)


def test_null_won_lost_and_its_announcements():
    assert parse_line("2n").declarer_tricks == 0  # 5.2.7: no trick, won
    assert parse_line("2nv").declarer_tricks == 1
    assert parse_line("2nl").declarer_tricks == 1
    assert parse_line("2nho") == PaperLine(declarer_seat=2, contract="null", hand=True, ouvert=True, declarer_tricks=0)


def test_passed_out():
    assert parse_line("-") == PaperLine(passed_out=True)
    assert parse_line("0") == PaperLine(passed_out=True)


def test_a_bid_after_the_card_points():
    assert parse_line("1h1 70 b36").bid == 36
    assert parse_line("1h1 70 R36").bid == 36


def test_an_empty_line_is_no_deal():
    assert parse_line("   ") is None


def test_the_line_as_the_phone_forms_data():
    assert parse_line("1k-3h 95").form_data() == {
        "declarer_seat": "1",
        "contract": "clubs",
        "tops_kind": "without",
        "tops": "3",
        "hand": "on",
        "declarer_points": "95",
    }
    assert parse_line("-").form_data() == {"passed_out": "on"}


@pytest.mark.parametrize(
    ("text", "field", "paragraph", "words"),
    [
        ("a", "declarer", "5.5.1", "seat number"),
        ("12h1 70", "declarer", "5.5.1", "seat number"),
        ("-h", "declarer", "5.5.1", "passed-out"),
        ("1q1 70", "contract", "2.1.1", "q is not a contract letter"),
        ("1", "contract", "2.1.1", "not a contract letter"),
        ("1h+ 70", "tops", "2.4.1", "+ is followed by the number of tops"),
        ("1h123 70", "tops", "2.4.3", "not a number of tops"),
        ("1h2q 70", "flags", "5.5.2", "q is not a flag"),
        ("1h2v 70", "flags", "5.2.2", "lost null game"),
        ("1nv 0/0", "flags", "5.2.7", "took a trick"),
        ("1h2 1200", "points", "1.2.2", "not a number of card points"),
        ("1h2 120/", "points", "4.4.1", "tricks"),
        ("1h2 75 zz", "bid", "3.3.2", "only a bid may follow"),
        ("1h2 75 b36 x", "bid", "5.5.2", "ends with the bid"),
        ("1h2 75 b19", "bid", "3.3.2, 5.6.1", "19 is not a game value"),
    ],
)
def test_every_refusal_names_its_field_and_paragraph(text, field, paragraph, words):
    with pytest.raises(RuleError) as raised:
        parse_line(text)
    error = raised.value
    assert error.field == field
    assert error.paragraph == paragraph
    assert words in error.message
    assert PARAGRAPH.search(str(error)), str(error)


@settings(max_examples=400)
@given(st.text(alphabet=st.sampled_from("0123456789+-/ khpxgncsdzolvbrq\u0661²\t\n\x00ÄÖß"), max_size=24))
def test_any_typed_text_is_a_line_or_a_refusal_naming_a_field(text):
    try:
        line = parse_line(text)
    except RuleError as error:
        assert error.field in ("declarer", "contract", "tops", "flags", "points", "bid")
        assert PARAGRAPH.search(str(error))
    else:
        assert line is None or isinstance(line, PaperLine)
