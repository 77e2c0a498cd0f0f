"""The checks of a game before it is valued: what the Skatordnung does not allow.

:func:`check_game` rejects every game the rules do not allow (a contract that is none,
too many tops, announcements without hand, card points and tricks that cannot be, a
bid that is no game value), naming the field and the paragraph; :func:`evaluate
<skat.rules.evaluate>` calls it first. :func:`game_from_mapping` builds a game from
outside input (``manage.py evaluate``, the sheet import) with the same messages.

Nothing here values a game: that is :mod:`skat.rules`, which imports this module
(never the other way round). No Django import here either.
"""

from __future__ import annotations

from collections.abc import Mapping

from .terms import (
    FLAG_NAMES,
    GAME_VALUES,
    HELD_POINTS,
    MAX_TOPS,
    POSSIBLE_POINTS,
    SKAT_CARDS,
    TOTAL_POINTS,
    TRICK_CARDS,
    TRICKS,
    Contract,
    Game,
    Irregularity,
    RuleError,
    gettext_noop,
)

_CONTRACT_LIST = ", ".join(c.value for c in Contract)


def check_game(game: Game) -> Contract:
    """Reject every game the rules do not allow; return the contract as an enum.

    The checks run in this order, each step raising the first :class:`RuleError` it
    finds: the contract, the types of the fields, the irregularity, the bid, card
    points and tricks; then a null game's own rules, or a suit or grand game's tops,
    announcements and what a game played to its end must give.
    """
    contract = _contract_of(game)
    _check_types(game)
    _check_irregularity(game)
    _check_bid(game)
    _check_points_and_tricks(game)
    if contract.is_null:
        _check_null_game(game)
        return contract
    _check_tops(game, contract)
    _check_announcements(game)
    if game.irregularity is not None:
        return contract  # 4.1.4: card points and tricks do not decide the game
    _check_played_to_the_end(game, contract)
    return contract


def _contract_of(game: Game) -> Contract:
    """2.1.1: the contract as an enum, or refused naming the choices."""
    try:
        return Contract(game.contract)
    except ValueError:
        raise RuleError(
            "contract",
            gettext_noop("{given} is not a contract; choose one of {choices}"),
            "2.1.1",
            given=repr(game.contract),
            choices=_CONTRACT_LIST,
        ) from None


def _check_types(game: Game) -> None:
    """The flags are true or false (5.2.1), the counts whole numbers or empty."""
    for name in ("hand", "schneider_announced", "schwarz_announced", "ouvert"):
        if not isinstance(getattr(game, name), bool):
            raise RuleError(name, gettext_noop("must be true or false"), "5.2.1")
    for name in ("tops", "declarer_points", "declarer_tricks", "bid"):
        value = getattr(game, name)
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
            raise RuleError(name, gettext_noop("must be a whole number"), _PARAGRAPH_OF[name])


def _check_irregularity(game: Game) -> None:
    """4.1.4: an irregularity, when given, names the party that committed it."""
    irregularity = game.irregularity
    if irregularity is not None and not (isinstance(irregularity, str) and irregularity in _IRREGULARITY_VALUES):
        raise RuleError(
            "irregularity",
            gettext_noop("{given} is not a party; an irregularity is committed by the declarer or the opponents"),
            "4.1.4",
            given=repr(game.irregularity),
        )


def _check_bid(game: Game) -> None:
    """3.3.2, 5.6.1: a bid, when given, is a game value."""
    if game.bid is not None and game.bid not in GAME_VALUES:
        raise RuleError(
            "bid",
            gettext_noop("{bid} is not a game value; bids are game values from 18 to 264"),
            "3.3.2, 5.6.1",
            bid=game.bid,
        )


def _check_points_and_tricks(game: Game) -> None:
    """Card points 0 to 120 (1.2.2), tricks 0 to 10 (4.4.1), and a count the cards can make."""
    points, tricks = game.declarer_points, game.declarer_tricks
    if points is not None and not 0 <= points <= TOTAL_POINTS:
        raise RuleError(
            "declarer_points", gettext_noop("{points} is not between 0 and 120 card points"), "1.2.2", points=points
        )
    if tricks is not None and not 0 <= tricks <= TRICKS:
        raise RuleError(
            "declarer_tricks", gettext_noop("{tricks} is not between 0 and 10 tricks"), "4.4.1", tricks=tricks
        )
    if points is not None:
        _check_card_points(points, tricks)


def _check_null_game(game: Game) -> None:
    """A null game: no tops (2.4.3), no schneider or schwarz announced (2.1.3), and its
    tricks unless an irregularity decided it (5.2.7)."""
    if game.tops is not None:
        raise RuleError("tops", gettext_noop("null games have no tops"), "2.4.3")
    for name in ("schneider_announced", "schwarz_announced"):
        if getattr(game, name):
            raise RuleError(name, gettext_noop("a null game cannot announce schneider or schwarz"), "2.1.3")
    if game.declarer_tricks is None and game.irregularity is None:
        raise RuleError(
            "declarer_tricks",
            gettext_noop("required for a null game: the declarer wins by losing every trick"),
            "5.2.7",
        )


def _check_tops(game: Game, contract: Contract) -> None:
    """A suit or grand game names its tops (2.4.2): at least 1 (2.4.1), at most its
    contract's (2.4.3)."""
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


def _check_announcements(game: Game) -> None:
    """Schneider and schwarz are announced (3.4.4), ouvert played (5.2.6), in a hand game only."""
    if not game.hand:
        for name in ("schneider_announced", "schwarz_announced", "ouvert"):
            if getattr(game, name):
                raise RuleError(
                    name,
                    gettext_noop("{announcement} can only be played in a hand game"),
                    "5.2.6" if name == "ouvert" else "3.4.4",
                    announcement=FLAG_NAMES[name],
                )


def _check_played_to_the_end(game: Game, contract: Contract) -> None:
    """A suit or grand game played to its end gives the card points (5.2.2), and the
    tricks where only they can tell schwarz (5.2.8)."""
    points, tricks = game.declarer_points, game.declarer_tricks
    if points is None:
        raise RuleError(
            "declarer_points",
            gettext_noop("required for a {kind}: the declarer's card points with the skat"),
            "5.2.2",
            kind=_kind(contract),
        )
    if (game.schwarz_announced or game.ouvert) and tricks is None and points == TOTAL_POINTS:
        # Fewer than 120 card points prove the opponents took a trick: the game is lost
        # without counting tricks. At 120 the opponents may still hold a pointless trick.
        raise RuleError(
            "declarer_tricks",
            gettext_noop(
                "required when schwarz is announced or ouvert is played and the declarer has all 120 card points: "
                "only all 10 tricks make schwarz"
            ),
            "5.2.8",
        )


def _check_card_points(points: int, tricks: int | None) -> None:
    """1.2.2: the declarer's card points are what some of the pack's cards count.

    With the tricks given, exactly his 3 x tricks + 2 cards (2.2.1: the skat is his);
    without, any number of them (no cards count 1 or 119). Derived from the card values
    (:data:`HELD_POINTS <skat.terms.HELD_POINTS>`), so every impossible pair is refused.
    """
    if tricks is None:
        if points not in POSSIBLE_POINTS:
            raise RuleError(
                "declarer_points",
                gettext_noop(
                    "card points {points}: no cards of the pack count exactly that many "
                    "(cards count 0, 2, 3, 4, 10, 11)"
                ),
                "1.2.2",
                points=points,
            )
        return
    held = HELD_POINTS[tricks]
    if points in held:
        return
    cards = TRICK_CARDS * tricks + SKAT_CARDS
    low, high = min(held), max(held)
    if low <= points <= high or low == high:
        raise RuleError(
            "declarer_points",
            gettext_noop(
                "card points {points} and tricks {tricks} do not fit: the declarer's tricks and the skat "
                "are {cards} cards, and no {cards} cards of the pack count exactly {points}"
            ),
            "1.2.2",
            and_field="declarer_tricks",
            points=points,
            tricks=tricks,
            cards=cards,
        )
    raise RuleError(
        "declarer_points",
        gettext_noop(
            "card points {points} and tricks {tricks} do not fit: the declarer's tricks and the skat "
            "are {cards} cards, which count {low} to {high} card points"
        ),
        "1.2.2",
        and_field="declarer_tricks",
        points=points,
        tricks=tricks,
        cards=cards,
        low=low,
        high=high,
    )


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
