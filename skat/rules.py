"""The Skatordnung's game valuation (section 5): the rules engine.

This is the only place in the project that values a Skat game. Forms, views, the
sheet import, the ``evaluate`` command and the standings all call :func:`evaluate`
and store what it returns; nothing else multiplies base values.

The engine is three pure modules that import only downwards: :mod:`skat.terms`
(contracts, the game and its outcome, the values, :class:`RuleError`),
:mod:`skat.validation` (what the rules do not allow, checked before a game is
valued) and this one (the valuation). Other code imports every name from here.

Paragraph numbers in docstrings and error messages are those of the International
Skat Laws (Skatordnung), so a referee can check every answer against the book.

No Django import here: the engine must run in a plain Python process (the
``evaluate`` command, property tests, an import script) and stay fast.
"""

from __future__ import annotations

import math

from .terms import (
    BASE_VALUES,
    CONTRACT_NAMES,
    FLAG_NAMES,
    GAME_POINTS,
    GAME_VALUES,
    MAX_MULTIPLIER,
    MAX_SKAT_POINTS,
    MAX_TOPS,
    MIN_BID,
    NULL_NAMES,
    NULL_VALUES,
    SCHNEIDER_POINTS,
    SCHNEIDERED_POINTS,
    TOTAL_POINTS,
    TRICKS,
    Contract,
    Game,
    Irregularity,
    Outcome,
    RuleError,
    gettext_noop,
)
from .validation import GAME_KEYS, check_game, field_name, game_from_mapping

__all__ = [
    "BASE_VALUES",
    "CONTRACT_NAMES",
    "FLAG_NAMES",
    "GAME_KEYS",
    "GAME_POINTS",
    "GAME_VALUES",
    "MAX_MULTIPLIER",
    "MAX_SKAT_POINTS",
    "MAX_TOPS",
    "MIN_BID",
    "NULL_NAMES",
    "NULL_VALUES",
    "SCHNEIDERED_POINTS",
    "SCHNEIDER_POINTS",
    "TOTAL_POINTS",
    "TRICKS",
    "Contract",
    "Game",
    "Irregularity",
    "Outcome",
    "RuleError",
    "evaluate",
    "field_name",
    "game_from_mapping",
    "gettext_noop",
    "score",
]


def evaluate(game: Game) -> Outcome:
    """Value one game under 5.1-5.4, or raise :class:`RuleError` naming the field.

    Announcements are normalised first (5.2.6: ouvert includes schwarz announced,
    which includes schneider announced), then the game is won or lost (5.2.2, 5.2.5,
    5.2.7), its multipliers counted (5.2.1, 5.2.5), and an overbid raised to the bid
    (5.4.1, 5.4.2).
    """
    contract = check_game(game)
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
    assert game.tops is not None and game.declarer_points is not None  # check_game
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
    assert game.tops is not None  # check_game
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
    assert game.tops is not None  # check_game
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
