"""The Skatordnung's game valuation (section 5), as one pure module.

This is the only place in the project that values a Skat game. Forms, views, the
sheet import, the ``evaluate`` command and the standings all call :func:`evaluate`
and store what it returns; nothing else multiplies base values.

Paragraph numbers in docstrings and error messages are those of the International
Skat Laws (Skatordnung), so a referee can check every answer against the book.

No Django import here: the engine must run in a plain Python process (the
``evaluate`` command, property tests, an import script) and stay fast.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum


def gettext_noop(text: str) -> str:
    """Mark a message for translation without translating it here.

    The engine imports nothing from Django; ``makemessages`` still finds these
    strings, and the web layer translates the template and its word parameters
    (see :func:`scoring.messages.rule_message`).
    """
    return text


class RuleError(ValueError):
    """A game that the Skatordnung does not allow, naming the field and paragraph.

    ``str(error)`` reads ``"tops: a grand has at most 4 tops, not 5 (2.4.3)"``: the
    field first, so forms can attach it to the right input, the paragraph last, so a
    referee can look it up. ``template`` and ``params`` keep the message translatable:
    ``message == template.format(**params)``.
    """

    def __init__(self, field: str, template: str, paragraph: str, **params: object) -> None:
        self.field = field
        self.template = template
        self.params = params
        self.message = template.format(**params) if params else template
        self.paragraph = paragraph
        super().__init__(f"{field}: {self.message} ({paragraph})")

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
#: 1.2.2: the whole pack counts 120 card points.
TOTAL_POINTS = 120
#: 2.2.1, 1.2.2: the skat holds at most two aces, 22 card points.
MAX_SKAT_POINTS = 22
TRICKS = 10

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


def evaluate(game: Game) -> Outcome:
    """Value one game under 5.1-5.4, or raise :class:`RuleError` naming the field.

    Announcements are normalised first (5.2.6: ouvert includes schwarz announced,
    which includes schneider announced), then the game is won or lost (5.2.2, 5.2.5,
    5.2.7), its multipliers counted (5.2.1, 5.2.5), and an overbid raised to the bid
    (5.4.1, 5.4.2).
    """
    contract = _check_game(game)
    if contract.is_null:
        return _evaluate_null(game)
    if game.irregularity is not None:
        return _evaluate_irregularity(game, contract, Irregularity(game.irregularity))
    return _evaluate_trump_game(game, contract)


def score(won: bool, value: int) -> int:
    """5.3.4: a won game adds its value, a lost one subtracts it doubled."""
    return value if won else -2 * value


def _evaluate_null(game: Game) -> Outcome:
    value = NULL_VALUES[(game.hand, game.ouvert)]
    if game.bid is not None and value < game.bid:
        raise RuleError(
            "bid",
            gettext_noop(
                "{game} is worth {value} and does not reach the bid {bid}: no valid announcement; "
                "the declarer must concede a lost suit or grand game that reaches the bid"
            ),
            "3.4.4",
            game=NULL_NAMES[(game.hand, game.ouvert)],
            value=value,
            bid=game.bid,
        )
    # 5.2.7: the declarer wins by losing every trick; after an irregularity (4.1.4) the
    # offended party wins, at the invariable value (5.1.2).
    irregular = game.irregularity is not None
    won = game.irregularity == Irregularity.OPPONENTS if irregular else game.declarer_tricks == 0
    return Outcome(won=won, value=value, score=score(won, value), overbid=False, multiplier=None)


def _evaluate_trump_game(game: Game, contract: Contract) -> Outcome:
    assert game.tops is not None and game.declarer_points is not None  # _check_game
    points = game.declarer_points
    tricks = game.declarer_tricks
    schwarz_announced = game.schwarz_announced or game.ouvert  # 5.2.6
    schneider_announced = game.schneider_announced or schwarz_announced  # 2.1.3

    made_schneider = points >= SCHNEIDER_POINTS  # 5.2.1
    made_schwarz = tricks == TRICKS  # 5.2.4; 5.2.8: only when the tricks show it
    won = (
        points >= GAME_POINTS  # 5.2.2
        and (made_schneider or not schneider_announced)  # 5.2.5
        and (made_schwarz or not schwarz_announced)
    )
    if schneider_announced:
        # 5.2.5: the announced levels count whether made or not, a higher level made
        # counts too, and a declarer who is himself schneidered or schwarz counts
        # nothing extra for it.
        schneider = True
        schwarz = schwarz_announced or made_schwarz
    else:
        # 5.2.3, 5.2.4: schneider and schwarz count for either party.
        schneider = made_schneider or points <= SCHNEIDERED_POINTS
        schwarz = made_schwarz or tricks == 0

    multiplier = _multiplier(game, schneider, schwarz, schneider_announced, schwarz_announced)
    base = BASE_VALUES[contract]
    value = base * multiplier
    overbid = game.bid is not None and value < game.bid
    if overbid:
        multiplier = _raise_to_bid(contract, game.bid)
        value = base * multiplier
        won = False
    return Outcome(
        won=won,
        value=value,
        score=score(won, value),
        overbid=overbid,
        multiplier=multiplier,
        schneider=schneider,
        schwarz=schwarz,
    )


def _multiplier(game: Game, schneider: bool, schwarz: bool, schneider_announced: bool, schwarz_announced: bool) -> int:
    """5.2.1: tops + game + schneider + schwarz + hand + schneider announced + schwarz
    announced + ouvert, each level counted once."""
    assert game.tops is not None  # _check_game
    return (
        game.tops
        + 1  # game
        + schneider
        + schwarz
        + game.hand
        + schneider_announced
        + schwarz_announced
        + game.ouvert
    )


def _raise_to_bid(contract: Contract, bid: int) -> int:
    """5.4.1: the multipliers of a lost game raised by as many as the bid needs, before
    doubling (5.3.4: the doubling itself may not be used to reach the bid)."""
    base = BASE_VALUES[contract]
    multiplier = math.ceil(bid / base)
    if multiplier > MAX_MULTIPLIER[contract]:
        raise RuleError(
            "bid",
            gettext_noop(
                "{contract} can never be worth the bid {bid}: its highest value is {highest}; "
                "the declarer must announce a game that can reach the bid"
            ),
            "3.4.2",
            contract=CONTRACT_NAMES[contract],
            bid=bid,
            highest=base * MAX_MULTIPLIER[contract],
        )
    return multiplier


def _evaluate_irregularity(game: Game, contract: Contract, offender: Irregularity) -> Outcome:
    """A suit or grand game ended by an irregularity before its outcome was established.

    4.1.4: the offending party loses "only a simple game (not schneider or schwarz)": no
    level reached in play counts for either party, so card points and tricks do not enter.
    What the declarer announced still counts (3.4.1: hand and the predictions are part of
    the contract; 5.2.5: a predicted level counts whether reached or not).

    The bid (5.4): when the opponents offend and the declarer needs schneider or schwarz to
    justify his bid, he is credited with the level required (4.1.5): schneider first, then
    schwarz. If even that does not reach the bid (a devaluing top in the skat, 5.4.1), or
    when the declarer offends below the bid, the game is lost and raised to the bid like
    any overbid game (5.4.1, 5.4.2). A referee who finds the required level demonstrably
    impossible (4.1.5, 5.4.3) records the game as played instead, with its card points.
    """
    assert game.tops is not None  # _check_game
    schwarz_announced = game.schwarz_announced or game.ouvert  # 5.2.6
    schneider_announced = game.schneider_announced or schwarz_announced  # 2.1.3
    schneider, schwarz = schneider_announced, schwarz_announced  # 4.1.4, 5.2.5
    multiplier = _multiplier(game, schneider, schwarz, schneider_announced, schwarz_announced)
    base = BASE_VALUES[contract]
    won = offender == Irregularity.OPPONENTS
    overbid = False
    if game.bid is not None and base * multiplier < game.bid:
        credited = multiplier
        if won:
            # 4.1.5: the level the bid needs, as far as schneider and schwarz go.
            credited += (not schneider) + (not schwarz)
        if base * credited >= game.bid:
            credited = multiplier + (not schneider)
            schneider = True
            if base * credited < game.bid:
                credited += 1
                schwarz = True
            multiplier = credited
        else:
            multiplier = _raise_to_bid(contract, game.bid)
            won, overbid = False, True
    value = base * multiplier
    return Outcome(
        won=won,
        value=value,
        score=score(won, value),
        overbid=overbid,
        multiplier=multiplier,
        schneider=schneider,
        schwarz=schwarz,
    )


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
_CONTRACT_LIST = ", ".join(c.value for c in Contract)


def _check_game(game: Game) -> Contract:
    """Reject every game the rules do not allow; return the contract as an enum."""
    try:
        contract = Contract(game.contract)
    except ValueError:
        raise RuleError(
            "contract",
            gettext_noop("{given} is not a contract; choose one of {choices}"),
            "2.1.1",
            given=repr(game.contract),
            choices=_CONTRACT_LIST,
        ) from None
    for name in ("hand", "schneider_announced", "schwarz_announced", "ouvert"):
        if not isinstance(getattr(game, name), bool):
            raise RuleError(name, gettext_noop("must be true or false"), "5.2.1")
    for name in ("tops", "declarer_points", "declarer_tricks", "bid"):
        value = getattr(game, name)
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
            raise RuleError(name, gettext_noop("must be a whole number"), _PARAGRAPH_OF[name])

    irregularity = game.irregularity
    if irregularity is not None and not (isinstance(irregularity, str) and irregularity in _IRREGULARITY_VALUES):
        raise RuleError(
            "irregularity",
            gettext_noop("{given} is not a party; an irregularity is committed by the declarer or the opponents"),
            "4.1.4",
            given=repr(game.irregularity),
        )
    if game.bid is not None and game.bid not in GAME_VALUES:
        raise RuleError(
            "bid",
            gettext_noop("{bid} is not a game value; bids are game values from 18 to 264"),
            "3.3.2, 5.6.1",
            bid=game.bid,
        )
    points, tricks = game.declarer_points, game.declarer_tricks
    if points is not None and not 0 <= points <= TOTAL_POINTS:
        raise RuleError(
            "declarer_points", gettext_noop("{points} is not between 0 and 120 card points"), "1.2.2", points=points
        )
    if tricks is not None and not 0 <= tricks <= TRICKS:
        raise RuleError(
            "declarer_tricks", gettext_noop("{tricks} is not between 0 and 10 tricks"), "4.4.1", tricks=tricks
        )
    if tricks == TRICKS and points is not None and points != TOTAL_POINTS:
        raise RuleError(
            "declarer_tricks",
            gettext_noop("all 10 tricks hold all 120 card points, not {points}"),
            "5.2.4",
            points=points,
        )
    if tricks == 0 and points is not None and points > MAX_SKAT_POINTS:
        raise RuleError(
            "declarer_points",
            gettext_noop("a declarer without a trick has only the skat's card points (at most 22), not {points}"),
            "2.2.1",
            points=points,
        )

    if contract.is_null:
        if game.tops is not None:
            raise RuleError("tops", gettext_noop("null games have no tops"), "2.4.3")
        for name in ("schneider_announced", "schwarz_announced"):
            if getattr(game, name):
                raise RuleError(name, gettext_noop("a null game cannot announce schneider or schwarz"), "2.1.3")
        if tricks is None and game.irregularity is None:
            raise RuleError(
                "declarer_tricks",
                gettext_noop("required for a null game: the declarer wins by losing every trick"),
                "5.2.7",
            )
        return contract

    if game.tops is None:
        raise RuleError(
            "tops",
            gettext_noop("required for a {kind}: count the tops played with or without"),
            "2.4.2",
            kind=_kind(contract),
        )
    if game.tops > MAX_TOPS[contract]:
        raise RuleError(
            "tops",
            gettext_noop("a {kind} has at most {most} tops, not {tops}"),
            "2.4.3",
            kind=_kind(contract),
            most=MAX_TOPS[contract],
            tops=game.tops,
        )
    if game.tops < 1:
        raise RuleError(
            "tops",
            gettext_noop("a {kind} is played with or without at least 1 top, not {tops}"),
            "2.4.1",
            kind=_kind(contract),
            tops=game.tops,
        )
    if not game.hand:
        for name in ("schneider_announced", "schwarz_announced", "ouvert"):
            if getattr(game, name):
                raise RuleError(
                    name,
                    gettext_noop("{announcement} can only be played in a hand game"),
                    "5.2.6" if name == "ouvert" else "3.4.4",
                    announcement=FLAG_NAMES[name],
                )
    if game.irregularity is not None:
        return contract  # 4.1.4: card points and tricks do not decide the game
    if points is None:
        raise RuleError(
            "declarer_points",
            gettext_noop("required for a {kind}: the declarer's card points with the skat"),
            "5.2.2",
            kind=_kind(contract),
        )
    if (game.schwarz_announced or game.ouvert) and tricks is None:
        raise RuleError(
            "declarer_tricks",
            gettext_noop("required when schwarz is announced or ouvert is played: all tricks decide it"),
            "5.2.8",
        )
    return contract


def _kind(contract: Contract) -> str:
    return gettext_noop("grand") if contract is Contract.GRAND else gettext_noop("suit game")


_PARAGRAPH_OF = {"tops": "2.4.3", "declarer_points": "1.2.2", "declarer_tricks": "4.4.1", "bid": "3.3.2"}

_BOOL_KEYS = ("hand", "schneider_announced", "schwarz_announced", "ouvert")
_INT_KEYS = ("tops", "declarer_points", "declarer_tricks", "bid")
#: ``irregularity`` is optional and new: input without it is valued exactly as before.
GAME_KEYS: tuple[str, ...] = ("contract", *_INT_KEYS, *_BOOL_KEYS, "irregularity")
_IRREGULARITY_VALUES = frozenset(party.value for party in Irregularity)


def field_name(key: object) -> str:
    """A key as the field of an error message: as it is when it reads as a name, quoted
    otherwise, so an empty or odd key ("", "a b", "x: y") still shows which one it was."""
    name = str(key)
    return name if name.isidentifier() else repr(name)


def game_from_mapping(data: Mapping[str, object], *, extra_keys: frozenset[str] = frozenset()) -> Game:
    """Build a :class:`Game` from decoded JSON, rejecting unknown keys and wrong types.

    Used by ``manage.py evaluate`` and the sheet import, so every outside input meets
    the same checks and the same messages. ``extra_keys`` are keys the caller reads
    itself (``declarer`` on a sheet line).
    """
    for key in data:
        if key not in GAME_KEYS and key not in extra_keys:
            raise RuleError(
                field_name(key),
                gettext_noop("unknown field; game fields are {fields}"),
                "5.5.2",
                fields=", ".join(GAME_KEYS),
            )
    if "contract" not in data:
        raise RuleError("contract", gettext_noop("required: one of {choices}"), "2.1.1", choices=_CONTRACT_LIST)
    contract = data["contract"]
    if not isinstance(contract, str):
        raise RuleError("contract", gettext_noop('must be a contract name such as "hearts"'), "2.1.1")
    fields: dict[str, object] = {}
    for key in _BOOL_KEYS:
        value = data.get(key, False)
        if not isinstance(value, bool):
            raise RuleError(key, gettext_noop("must be true or false"), "5.2.1")
        fields[key] = value
    for key in _INT_KEYS:
        value = data.get(key)
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
            raise RuleError(key, gettext_noop("must be a whole number"), _PARAGRAPH_OF[key])
        fields[key] = value
    irregularity = data.get("irregularity")
    if irregularity is not None:
        if not isinstance(irregularity, str) or irregularity not in _IRREGULARITY_VALUES:
            raise RuleError(
                "irregularity",
                gettext_noop('must be "declarer" or "opponents": the party that committed it'),
                "4.1.4",
            )
        fields["irregularity"] = Irregularity(irregularity)
    try:
        parsed = Contract(contract.strip().lower())
    except ValueError:
        raise RuleError(
            "contract",
            gettext_noop("{given} is not a contract; choose one of {choices}"),
            "2.1.1",
            given=repr(contract),
            choices=_CONTRACT_LIST,
        ) from None
    return Game(contract=parsed, **fields)  # type: ignore[arg-type]
