"""What the rehearsal's phones send: a random valid deal, and that deal as the table form's POST fields.

The rehearsal plays through the table links as the phones do; the demo, the bench and the
load test (office.demo, perf) make their deals here too, so every simulated evening
enters the same kind of game.
"""

from __future__ import annotations

import random
import uuid

from scoring import services
from scoring.models import Game
from skat.rules import GAME_VALUES, Contract, RuleError
from skat.sheet import active_seats


def random_game(rng: random.Random, number: int, size: int) -> Game:
    """A plausible valid deal: mostly suit games, some grands and nulls, a few passed out."""
    if rng.random() < 0.04:
        game = Game(number=number, passed_out=True)
        services.value(game, size)
        return game
    declarer = rng.choice(active_seats(number, size))
    while True:
        roll = rng.random()
        contract = (
            Contract.NULL
            if roll < 0.08
            else Contract.GRAND
            if roll < 0.3
            else rng.choice([Contract.DIAMONDS, Contract.HEARTS, Contract.SPADES, Contract.CLUBS])
        )
        game = Game(number=number, declarer_seat=declarer, contract=contract.value)
        game.hand = rng.random() < 0.12
        if contract is Contract.NULL:
            game.ouvert = rng.random() < 0.3
            game.declarer_tricks = 0 if rng.random() < 0.8 else rng.randint(1, 3)
        else:
            game.tops = rng.choice([1, 1, 1, 2, 2, 3, 4]) if contract is Contract.GRAND else rng.randint(1, 4)
            game.tops_kind = rng.choice([Game.TopsKind.WITH, Game.TopsKind.WITHOUT])
            game.declarer_points = max(0, min(120, int(rng.gauss(72, 18))))
            if game.declarer_points == 120:
                game.declarer_tricks = 10
        try:
            value = services.value(game, size).value
            # Most bids are justified; now and then the skat spoils one (5.4.1).
            values = sorted(GAME_VALUES)
            reachable = [v for v in values if v <= value]
            game.bid = (
                rng.choice(reachable[-4:]) if rng.random() < 0.95 else values[min(len(values) - 1, len(reachable) + 1)]
            )
            services.value(game, size)
        except RuleError:
            continue  # e.g. a null below its bid: deal again
        return game


def entry_data(game: Game) -> dict[str, str]:
    """The POST fields of the table form that enter ``game`` (as a phone sends them)."""
    data: dict[str, str] = {"number": str(game.number), "client_id": str(uuid.uuid4())}
    for name in Game.ENTERED_FIELDS:
        value = getattr(game, name)
        if value is None or value is False or value == "":
            continue
        data[name] = "on" if value is True else str(value)
    return data


def deal_fields(rng: random.Random, number: int, size: int) -> dict[str, str]:
    """The POST fields of a random valid deal, without its client id (each phone's form gives its own)."""
    return {k: v for k, v in entry_data(random_game(rng, number, size)).items() if k != "client_id"}
