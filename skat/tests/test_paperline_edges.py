"""A typed paper-sheet line (skat/paperline.py) at its edges: every refusal in full and
each length limit, what mutation testing (make mutation) showed the other paper-line
tests, which read a few words of each message, left open."""

from __future__ import annotations

import pytest

from skat import paperline
from skat.paperline import parse_line
from skat.rules import RuleError

SEAT = "start the line with the declarer's seat number (1 to 4), or type - alone for a passed-out deal (5.5.1)"
LETTERS = "k/c clubs (Kreuz), h hearts, p/s spades (Pik), x/d diamonds (Karo), g grand, n null"
BID = "is not read: after the card points only a bid may follow, e.g. b36 or r36 (3.3.2)"
TRICKS = "points: / is followed by the declarer's tricks (0 to 10), e.g. 120/10 (4.4.1)"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("a", f"declarer: a: {SEAT}"),
        ("12h1 70", f"declarer: 12h1: {SEAT}"),
        ("0h", f"declarer: 0h: {SEAT}"),
        ("1q1 70", f"contract: q is not a contract letter: {LETTERS} (2.1.1)"),
        ("1", f"contract: … is not a contract letter: {LETTERS} (2.1.1)"),
        ("1h+ 70", "tops: + is followed by the number of tops, e.g. +2 (2.4.1)"),
        ("1h- 70", "tops: - is followed by the number of tops, e.g. -2 (2.4.1)"),
        ("1h123 70", "tops: 123 is not a number of tops (1 to 11) (2.4.3)"),
        (
            "2x 70",
            "tops: x is Diamonds: its tops follow the letter directly, e.g. x2 (with 2) or x-3 (without 3); "
            f"the contract letters: {LETTERS} (2.4.2)",
        ),
        (
            "1h2q 70",
            "flags: q is not a flag: h hand, s schneider announced, z schwarz announced, o ouvert, "
            "v or l lost (null) (5.5.2)",
        ),
        (
            "1h2v 70",
            "flags: v/l marks a lost null game; a suit game or grand is won or lost by its card points (5.2.2)",
        ),
        ("1nv 0/0", "flags: v/l says the declarer took a trick, but the tricks typed are 0 (5.2.7)"),
        ("1h2 1200", "points: 1200 is not a number of card points (0 to 120) (1.2.2)"),
        ("1h2 120/", TRICKS),
        ("1h2 120/100", TRICKS),
        ("1h2 75 zz", f"bid: zz {BID}"),
        ("1h2 75 b1234", f"bid: b1234 {BID}"),
        ("1h2 75 bx", f"bid: bx {BID}"),
        ("1h2 75 x36", f"bid: x36 {BID}"),
        ("1h2 75 b²", f"bid: b² {BID}"),
        ("1h2 75 b36 x", "bid: b36 x is not read: the line ends with the bid (5.5.2)"),
        ("1h2 75 b19", "bid: 19 is not a game value; bids are game values from 18 to 264 (3.3.2, 5.6.1)"),
    ],
)
def test_a_line_that_cannot_be_read_is_refused_in_full(text, message):
    with pytest.raises(RuleError) as raised:
        parse_line(text)
    assert str(raised.value) == message


def test_each_number_at_its_longest():
    """Tops up to two digits (11), card points up to three (120), tricks up to two (10),
    a bid up to three (264)."""
    line = parse_line("4g-11 120/10 r264")
    assert (line.declarer_seat, line.tops_kind, line.tops) == (4, "without", 11)
    assert (line.declarer_points, line.declarer_tricks, line.bid) == (120, 10, 264)


def test_reading_a_line_moves_on_at_every_step(monkeypatch):
    """The reader looks at each character a few times and never stands still (a reader
    that did would hang the office's grid): counted, not timed."""
    looks = [0]
    peek = paperline._Reader.peek

    def counted(reader) -> str:
        looks[0] += 1
        assert looks[0] <= 10 * len(reader.text), "the reader keeps looking at the same place"
        return peek(reader)

    monkeypatch.setattr(paperline._Reader, "peek", counted)
    for text in ("1h2  75 b36", "2n", "3g-4 hs 61"):
        looks[0] = 0
        assert parse_line(text) is not None
