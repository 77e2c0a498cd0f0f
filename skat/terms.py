"""The terms of the Skatordnung the rules engine speaks in: contracts, games, values.

The contracts (2.1.1), the game as the scoresheet records it and its outcome (5.5.2),
the base and null values (5.1), every game value (5.6.1), the card points that decide
a game (5.2) and the error a game the rules do not allow raises. Shared by
:mod:`skat.validation`, which checks a game, and :mod:`skat.rules`, which values
it; other code imports these names from :mod:`skat.rules`.

Paragraph numbers in docstrings and error messages are those of the International
Skat Laws (Skatordnung), so a referee can check every answer against the book.

No Django import here: the engine must run in a plain Python process (the
``evaluate`` command, property tests, an import script) and stay fast.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


def gettext_noop(text: str) -> str:
    """Mark a message for translation without translating it here.

    The engine imports nothing from Django; ``makemessages`` still finds these
    strings, and the web layer translates the template and its word parameters
    (see :func:`core.rule_messages.rule_message`).
    """
    return text


class RuleError(ValueError):
    """A game that the Skatordnung does not allow, naming the field and paragraph.

    ``str(error)`` reads ``"tops: a grand has at most 4 tops, not 5 (2.4.3)"``: the
    field first, so forms can attach it to the right input, the paragraph last, so a
    referee can look it up. ``template`` and ``params`` keep the message translatable:
    ``message == template.format(**params)``.
    """

    def __init__(
        self, field: str, template: str, paragraph: str, *, and_field: str | None = None, **params: object
    ) -> None:
        self.field = field
        #: A second field the rule concerns (card points and tricks that do not fit together).
        self.and_field = and_field
        self.template = template
        self.params = params
        self.message = template.format(**params) if params else template
        self.paragraph = paragraph
        named = f"{field}, {and_field}" if and_field else field
        super().__init__(f"{named}: {self.message} ({paragraph})")

    @property
    def rule_text(self) -> str:
        """The message without the field, paragraph first: "5.4.1: ..." for the UI."""
        return f"{self.paragraph}: {self.message}"


class Contract(StrEnum):
    """The contracts of 2.1.1: four suits, grand and null."""

    DIAMONDS = "diamonds"
    HEARTS = "hearts"
    SPADES = "spades"
    CLUBS = "clubs"
    GRAND = "grand"
    NULL = "null"

    @property
    def is_null(self) -> bool:
        return self is Contract.NULL

    @property
    def is_suit(self) -> bool:
        return self not in (Contract.GRAND, Contract.NULL)


class Irregularity(StrEnum):
    """Who committed the irregularity that ended a game before its outcome was established.

    4.1.3-4.1.6 (and every rule that refers to them: a revoke 4.2.3, a card pulled out of
    turn 4.2.7, the skat examined during play 4.2.8, a comment that influences play 4.2.9,
    tricks not stacked 4.4.4): the game ends in favour of the offended party, who wins a
    simple game (4.1.4). A game whose outcome was already established when the offence
    was committed is not one of these: it is recorded as played, with the card points taken
    by then (4.1.3).
    """

    DECLARER = "declarer"
    OPPONENTS = "opponents"


#: 5.1.1: base values of suit and grand games.
BASE_VALUES: dict[Contract, int] = {
    Contract.DIAMONDS: 9,
    Contract.HEARTS: 10,
    Contract.SPADES: 11,
    Contract.CLUBS: 12,
    Contract.GRAND: 24,
}

#: 5.1.2: the invariable values of null games, keyed by (hand, ouvert).
NULL_VALUES: dict[tuple[bool, bool], int] = {
    (False, False): 23,
    (True, False): 35,
    (False, True): 46,
    (True, True): 59,
}

#: 2.4.3: a suit game is played with or without 1 to 11 tops, a grand 1 to 4.
MAX_TOPS: dict[Contract, int] = {suit: 11 for suit in BASE_VALUES} | {Contract.GRAND: 4}

#: 5.2.1: tops + game + schneider + schwarz + hand + schneider announced
#: + schwarz announced + ouvert: the most multipliers a game can count
#: (5.6.1: clubs 18 x 12 = 216, grand 11 x 24 = 264).
MAX_MULTIPLIER: dict[Contract, int] = {c: MAX_TOPS[c] + 7 for c in BASE_VALUES}

#: 5.2.2: card points the declarer needs to win a simple game.
GAME_POINTS = 61
#: 5.2.1, 5.2.3: 90 card points make the opponents schneider ...
SCHNEIDER_POINTS = 90
#: ... and a party with 30 or fewer is schneidered (5.2.3).
SCHNEIDERED_POINTS = 30
#: 1.2.2: the card values of the pack: 12 blanks (seven, eight, nine), and 4 each of
#: jack 2, queen 3, king 4, ten 10 and ace 11 (4 x 30 = 120 card points).
PACK: tuple[int, ...] = (0,) * 12 + (2,) * 4 + (3,) * 4 + (4,) * 4 + (10,) * 4 + (11,) * 4
#: 1.2.2: the whole pack counts 120 card points.
TOTAL_POINTS = sum(PACK)
TRICKS = 10
#: 2.2.1: the skat's two cards belong to the declarer (4.4.1: a trick is three cards).
SKAT_CARDS = 2
TRICK_CARDS = 3


def _sums_of_cards(pack: tuple[int, ...]) -> tuple[frozenset[int], ...]:
    """``sums[n]``: every card-point total that some n cards of ``pack`` count.

    A subset sum over the pack, card by card (32 cards, totals up to 120): derived from
    the card values, so no total is typed in by hand.
    """
    sums: list[set[int]] = [{0}] + [set() for _ in pack]
    for taken, value in enumerate(pack):
        for n in range(taken + 1, 0, -1):
            sums[n] |= {total + value for total in sums[n - 1]}
    return tuple(frozenset(totals) for totals in sums)


_SUMS = _sums_of_cards(PACK)
#: 1.2.2: the card points the declarer can hold after ``t`` tricks, keyed by ``t``: some
#: 3t + 2 cards of the pack (his tricks and the skat) must count them.
HELD_POINTS: dict[int, frozenset[int]] = {t: _SUMS[TRICK_CARDS * t + SKAT_CARDS] for t in range(TRICKS + 1)}
#: Every total the declarer can hold with any number of tricks (1 and 119 are none).
POSSIBLE_POINTS: frozenset[int] = frozenset().union(*HELD_POINTS.values())
#: 2.2.1, 1.2.2: the skat holds at most two aces, 22 card points.
MAX_SKAT_POINTS = max(HELD_POINTS[0])

#: 5.6.1: every value a game can have, from 18 (diamonds with or without 1) to 264
#: (grand ouvert with 4). Generated here, checked against the printed table in the tests.
GAME_VALUES: frozenset[int] = frozenset(
    {base * m for contract, base in BASE_VALUES.items() for m in range(2, MAX_MULTIPLIER[contract] + 1)}
    | set(NULL_VALUES.values())
)
#: 3.3.2: bidding starts at the lowest game value.
MIN_BID = min(GAME_VALUES)


@dataclass(frozen=True, slots=True)
class Game:
    """One game as written on the scoresheet (5.5.2) plus what decides it.

    ``tops`` is the number played with or without (5.3.3: only the count matters);
    ``declarer_points`` are the declarer's card points including the skat (2.2.1);
    ``declarer_tricks`` the tricks he took (needed for null and for schwarz: 5.2.8,
    a party claiming schwarz must show it); ``bid`` is the final bid of the auction,
    ``None`` when forehand played without a bid (3.3.6). ``irregularity`` names the party
    whose irregularity ended the game (4.1.4); card points and tricks then need not be
    given and do not decide it.
    """

    contract: Contract
    tops: int | None = None
    hand: bool = False
    schneider_announced: bool = False
    schwarz_announced: bool = False
    ouvert: bool = False
    declarer_points: int | None = None
    declarer_tricks: int | None = None
    bid: int | None = None
    irregularity: Irregularity | None = None


@dataclass(frozen=True, slots=True)
class Outcome:
    """What a game is worth, as the scoresheet records it (5.5.1, 5.5.2).

    ``value`` is the game value (for an overbid game, already raised to reach the
    bid, 5.4.1); ``score`` is what the declarer's total changes by: +value when won,
    -2 x value when lost (5.3.4). ``multiplier`` is the number of multipliers the
    value counts (None at null, whose values are fixed, 5.1.2). ``schneider`` and
    ``schwarz`` say whether that level is counted on the sheet.
    """

    won: bool
    value: int
    score: int
    overbid: bool
    multiplier: int | None
    schneider: bool = False
    schwarz: bool = False

    def as_dict(self) -> dict[str, object]:
        """The answer of ``manage.py evaluate``: exactly these five keys."""
        return {
            "won": self.won,
            "value": self.value,
            "score": self.score,
            "overbid": self.overbid,
            "multiplier": self.multiplier,
        }


#: Names used inside messages (marked for translation, lower case as in a sentence).
NULL_NAMES = {
    (False, False): gettext_noop("null"),
    (True, False): gettext_noop("null hand"),
    (False, True): gettext_noop("null ouvert"),
    (True, True): gettext_noop("null ouvert hand"),
}
CONTRACT_NAMES = {
    Contract.DIAMONDS: gettext_noop("Diamonds"),
    Contract.HEARTS: gettext_noop("Hearts"),
    Contract.SPADES: gettext_noop("Spades"),
    Contract.CLUBS: gettext_noop("Clubs"),
    Contract.GRAND: gettext_noop("Grand"),
    Contract.NULL: gettext_noop("Null"),
}
FLAG_NAMES = {
    "schneider_announced": gettext_noop("schneider announced"),
    "schwarz_announced": gettext_noop("schwarz announced"),
    "ouvert": gettext_noop("ouvert"),
}
