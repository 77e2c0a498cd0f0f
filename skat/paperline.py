"""One line of a paper scoresheet as typed at the office's desk: ``1h2 75`` is a deal.

The office grid (:mod:`scoring.grid`) lets a director or referee type a table's paper
list row by row, keyboard only. A row is short, in the order of the printed sheet
(5.5.2): the declarer's seat, the contract by its letter, the tops, the flags, the card
points. ``1h2 75``: seat 1 played hearts with 2 and took 75 card points (7 keystrokes
with Enter); ``2n`` is a won null game; ``-`` a passed-out deal.

- declarer: the seat number (1 to 4); ``-`` or ``0`` alone: passed out (5.5.1, 3.3.7);
- contract: the usual letter, German ``k h p x g n`` (Kreuz, Herz, Pik, Karo, Grand,
  Null) or English ``c h s d g n`` (clubs, hearts, spades, diamonds, grand, null): the
  two sets do not clash, so both are read whatever the page's language (2.1.1);
- tops, right after the letter: ``h2`` or ``h+2`` with 2, ``h-3`` without 3 (2.4.1);
  none at null;
- flags, letters after the tops: ``h`` hand, ``s`` schneider announced, ``z`` schwarz
  announced, ``o`` ouvert, ``v`` or ``l`` (verloren, lost): the null game is lost, the
  declarer took a trick (5.2.7);
- card points: the declarer's, with the skat (5.2.2); ``/10`` after them gives his
  tricks (``120/10``: schwarz, 5.2.8); a null game needs none;
- bid (optional): ``b36`` or ``r36`` (Reizwert), for an overbid game (5.4.1).

This module only reads the line: it raises :class:`RuleError` naming the field and
the paragraph for what is not a line at all, and leaves every rule of the game to the
engine (:func:`skat.rules.evaluate`, through the same form as the phone). No Django
import: a pure function, tested letter by letter.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .terms import CONTRACT_NAMES, GAME_VALUES, Contract, RuleError, gettext_noop

#: 2.1.1: the contract letters, German (Kreuz, Herz, Pik, Karo) and English.
CONTRACT_LETTERS: dict[str, Contract] = {
    "k": Contract.CLUBS,
    "c": Contract.CLUBS,
    "h": Contract.HEARTS,
    "p": Contract.SPADES,
    "s": Contract.SPADES,
    "x": Contract.DIAMONDS,
    "d": Contract.DIAMONDS,
    "g": Contract.GRAND,
    "n": Contract.NULL,
}
#: The letters shown in the help, per language (the order of the sheet's base values, high to low).
LETTERS_OF = {"de": "k h p x g n", "en": "c h s d g n"}
#: 5.5.2: the flags written beside the game.
FLAG_LETTERS: dict[str, str] = {
    "h": "hand",
    "s": "schneider_announced",
    "z": "schwarz_announced",
    "o": "ouvert",
    "v": "lost",
    "l": "lost",
}
PASSED = frozenset({"-", "0"})
BID_PREFIXES = ("b", "r")
#: The fields a line has, in its order: what errors name.
FIELDS = ("declarer", "contract", "tops", "flags", "points", "bid")
#: What the reader skips and what it takes as a number: ASCII digits only (not "²" nor an Arabic-Indic digit).
SPACES = re.compile(" *")
DIGITS = re.compile("[0-9]*")


@dataclass(frozen=True, slots=True)
class PaperLine:
    """What a typed line says, as the game form's fields (:data:`Game.ENTERED_FIELDS`)."""

    passed_out: bool = False
    declarer_seat: int | None = None
    contract: str = ""
    tops_kind: str = ""
    tops: int | None = None
    hand: bool = False
    schneider_announced: bool = False
    schwarz_announced: bool = False
    ouvert: bool = False
    declarer_points: int | None = None
    declarer_tricks: int | None = None
    bid: int | None = None

    def form_data(self) -> dict[str, str]:
        """The line as the phone form's POST data (ticked boxes "on", empty fields left out)."""
        data: dict[str, str] = {}
        for name in ("passed_out", "hand", "schneider_announced", "schwarz_announced", "ouvert"):
            if getattr(self, name):
                data[name] = "on"
        for name in ("declarer_seat", "tops", "declarer_points", "declarer_tricks", "bid"):
            value = getattr(self, name)
            if value is not None:
                data[name] = str(value)
        if self.contract:
            data["contract"] = self.contract
        if self.tops_kind:
            data["tops_kind"] = self.tops_kind
        return data


def parse_line(text: str) -> PaperLine | None:
    """The typed line as a :class:`PaperLine`, None for an empty line; :class:`RuleError`
    (field, paragraph) for what cannot be read."""
    line = " ".join(text.split()).casefold()
    if not line:
        return None
    if line in PASSED:
        return PaperLine(passed_out=True)
    reader = _Reader(line)
    seat = reader.digits()
    if not seat or len(seat) > 1 or seat == "0":
        raise RuleError(
            "declarer",
            gettext_noop(
                "{given}: start the line with the declarer's seat number (1 to 4), "
                "or type - alone for a passed-out deal"
            ),
            "5.5.1",
            given=line.split(" ")[0],
        )
    reader.spaces()
    letter = reader.take()
    contract = CONTRACT_LETTERS.get(letter)
    if contract is None:
        raise RuleError(
            "contract",
            gettext_noop(
                "{given} is not a contract letter: k/c clubs (Kreuz), h hearts, p/s spades (Pik), "
                "x/d diamonds (Karo), g grand, n null"
            ),
            "2.1.1",
            given=letter or "…",
        )
    fields: dict[str, object] = {"declarer_seat": int(seat), "contract": contract.value}
    _tops(reader, letter, contract, fields)
    lost = _flags(reader, fields)
    _points(reader, fields)
    reader.spaces()
    rest = reader.rest()
    if rest:
        fields["bid"] = _bid(rest)
    _null_tricks(contract, lost, fields)
    return PaperLine(**fields)  # type: ignore[arg-type]


def _tops(reader: _Reader, letter: str, contract: Contract, fields: dict[str, object]) -> None:
    """The tops right after the contract letter (2.4.1): ``2``, ``+2`` with, ``-3`` without;
    none at null, required for a suit game or grand (2.4.2)."""
    # The tops follow the letter directly ("h2"): after a space a number is the card points.
    sign = reader.take() if reader.peek() in ("+", "-") else ""
    tops = reader.digits()
    if sign and not tops:
        raise RuleError(
            "tops", gettext_noop("{sign} is followed by the number of tops, e.g. {sign}2"), "2.4.1", sign=sign
        )
    if tops:
        if len(tops) > 2:
            raise RuleError("tops", gettext_noop("{given} is not a number of tops (1 to 11)"), "2.4.3", given=tops)
        fields["tops"] = int(tops)
        fields["tops_kind"] = "without" if sign == "-" else "with"
    elif not contract.is_null:
        # "2x 70": x is a contract (Karo) and the tops are missing; say both, with the letters,
        # for whoever took the x for a slip of the keyboard.
        raise RuleError(
            "tops",
            gettext_noop(
                "{given} is {contract}: its tops follow the letter directly, e.g. {given}2 (with 2) or "
                "{given}-3 (without 3); the contract letters: k/c clubs (Kreuz), h hearts, p/s spades (Pik), "
                "x/d diamonds (Karo), g grand, n null"
            ),
            "2.4.2",
            given=letter,
            contract=CONTRACT_NAMES[contract],
        )


def _points(reader: _Reader, fields: dict[str, object]) -> None:
    """The declarer's card points (1.2.2), and his tricks after a ``/`` (4.4.1)."""
    reader.spaces()
    points = reader.digits()
    if points:
        if len(points) > 3:
            raise RuleError(
                "points", gettext_noop("{given} is not a number of card points (0 to 120)"), "1.2.2", given=points
            )
        fields["declarer_points"] = int(points)
        if reader.peek() == "/":
            reader.take()
            tricks = reader.digits()
            if not tricks or len(tricks) > 2:
                raise RuleError(
                    "points",
                    gettext_noop("/ is followed by the declarer's tricks (0 to 10), e.g. 120/10"),
                    "4.4.1",
                )
            fields["declarer_tricks"] = int(tricks)


def _flags(reader: _Reader, fields: dict[str, object]) -> bool:
    """The flag letters after the tops; answers whether the lost flag was among them."""
    lost = False
    reader.spaces()
    while reader.peek().isalpha():
        letter = reader.take()
        name = FLAG_LETTERS.get(letter)
        if name is None:
            raise RuleError(
                "flags",
                gettext_noop(
                    "{given} is not a flag: h hand, s schneider announced, z schwarz announced, o ouvert, "
                    "v or l lost (null)"
                ),
                "5.5.2",
                given=letter,
            )
        if name == "lost":
            lost = True
        else:
            fields[name] = True
    return lost


def _bid(rest: str) -> int:
    token = rest.split(" ")[0]
    number = token[1:]
    if token[:1] not in BID_PREFIXES or not number.isascii() or not number.isdigit() or len(number) > 3:
        raise RuleError(
            "bid",
            gettext_noop("{given} is not read: after the card points only a bid may follow, e.g. b36 or r36"),
            "3.3.2",
            given=rest,
        )
    if rest != token:
        raise RuleError("bid", gettext_noop("{given} is not read: the line ends with the bid"), "5.5.2", given=rest)
    bid = int(number)
    if bid not in GAME_VALUES:  # the engine's own words (skat.validation)
        raise RuleError(
            "bid",
            gettext_noop("{bid} is not a game value; bids are game values from 18 to 264"),
            "3.3.2, 5.6.1",
            bid=bid,
        )
    return bid


def _null_tricks(contract: Contract, lost: bool, fields: dict[str, object]) -> None:
    """5.2.7: a null game is won when the declarer takes no trick. Without tricks typed,
    the lost flag says he took one (any number would do: only none wins)."""
    tricks = fields.get("declarer_tricks")
    if not contract.is_null:
        if lost:
            raise RuleError(
                "flags",
                gettext_noop("v/l marks a lost null game; a suit game or grand is won or lost by its card points"),
                "5.2.2",
            )
        return
    if tricks is None:
        fields["declarer_tricks"] = 1 if lost else 0
    elif lost and tricks == 0:
        raise RuleError(
            "flags", gettext_noop("v/l says the declarer took a trick, but the tricks typed are 0"), "5.2.7"
        )


class _Reader:
    """The line, read character by character."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.at = 0

    def peek(self) -> str:
        return self.text[self.at] if self.at < len(self.text) else ""

    def take(self) -> str:
        char = self.peek()
        self.at += len(char)
        return char

    def spaces(self) -> None:
        self.at = SPACES.match(self.text, self.at).end()

    def digits(self) -> str:
        start = self.at
        self.at = DIGITS.match(self.text, self.at).end()
        return self.text[start : self.at]

    def rest(self) -> str:
        return self.text[self.at :]
