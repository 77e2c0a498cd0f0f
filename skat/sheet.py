"""A whole table's scoresheet (5.5.2) evaluated from plain data, without a database.

This is what ``manage.py evaluate --sheet`` runs and what the paper-sheet import
checks row by row: the deal rotation (3.2.1, 3.2.7), each game through
:func:`skat.rules.evaluate`, the performance rating and the 5.5.5 settlement.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from .rating import Rating, rate_table
from .rules import Outcome, RuleError, evaluate, field_name, game_from_mapping, gettext_noop
from .settlement import settle

TABLE_SIZES = (3, 4)


def dealer_seat(number: int, table_size: int) -> int:
    """3.2.1: seat 1 deals game 1 and the deal passes to the left: seat ((n-1) mod size)+1."""
    return (number - 1) % table_size + 1


def active_seats(number: int, table_size: int) -> tuple[int, ...]:
    """The seats that play deal ``number``: everyone at three, all but the dealer at four (3.2.7)."""
    dealer = dealer_seat(number, table_size)
    if table_size == 3:
        return (1, 2, 3)
    return tuple(seat for seat in range(1, table_size + 1) if seat != dealer)


@dataclass(frozen=True, slots=True)
class SheetLine:
    """One deal of the sheet: the declarer's seat (None when passed out) and the outcome."""

    number: int
    dealer: int
    declarer: int | None
    outcome: Outcome | None


@dataclass(frozen=True, slots=True)
class SheetResult:
    players: tuple[str, ...]
    lines: tuple[SheetLine, ...]
    ratings: tuple[Rating, ...]
    settlement: tuple[int, ...]

    def as_dict(self) -> dict[str, object]:
        """The answer of ``manage.py evaluate --sheet``."""
        return {
            "players": [
                {
                    "name": name,
                    "points": r.points,
                    "won": r.won,
                    "lost": r.lost,
                    "bonus": r.bonus,
                    "rating": r.rating,
                }
                for name, r in zip(self.players, self.ratings, strict=True)
            ],
            "settlement": dict(zip(self.players, self.settlement, strict=True)),
        }


class SheetError(RuleError):
    """A sheet that cannot be evaluated: a :class:`RuleError` (field, translatable template,
    paragraph) and, when one game's line is at fault, its number: ``str(error)`` reads
    ``"game 7: tops: a grand has at most 4 tops, not 5 (2.4.3)"``."""

    def __init__(self, field: str, template: str, paragraph: str, *, game: int | None = None, **params: object):
        super().__init__(field, template, paragraph, **params)
        self.game = game
        if game is not None:
            self.args = (f"game {game}: {self.args[0]}",)

    @classmethod
    def of_game(cls, number: int, error: RuleError) -> SheetError:
        """The engine's refusal of game ``number``, as the sheet's."""
        return cls(
            error.field, error.template, error.paragraph, game=number, and_field=error.and_field, **error.params
        )


def evaluate_sheet(data: object) -> SheetResult:
    """Evaluate ``{"players": [...], "games": [...]}`` or raise :class:`SheetError`.

    Game i (from 1) is dealt by seat ((i-1) mod n)+1; at a table of four the dealer
    sits out (3.2.7) and may not be declarer. ``{"passed": true}`` is a passed-out
    deal: it counts as dealt and nobody scores (3.2.16, 5.5.1).
    """
    if not isinstance(data, Mapping):
        raise SheetError(
            "sheet", gettext_noop("must be a JSON object {shape}"), "5.5.2", shape='{"players": [...], "games": [...]}'
        )
    unknown = sorted(set(data) - {"players", "games"})
    if unknown:
        raise SheetError(field_name(unknown[0]), gettext_noop("unknown field; a sheet has players and games"), "5.5.2")
    players = _players(data.get("players"))
    games = data.get("games")
    if not isinstance(games, list):
        raise SheetError("games", gettext_noop("must be a list of games, one per deal"), "5.5.2")

    size = len(players)
    lines: list[SheetLine] = []
    for number, entry in enumerate(games, start=1):
        try:
            lines.append(_line(number, entry, players))
        except RuleError as error:
            raise SheetError.of_game(number, error) from None
    declared = [(line.declarer - 1, line.outcome.won, line.outcome.score) for line in lines if line.outcome]
    ratings = tuple(rate_table(size, declared))
    return SheetResult(
        players=players,
        lines=tuple(lines),
        ratings=ratings,
        settlement=tuple(settle([r.points for r in ratings])),
    )


def _players(value: object) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(name, str) and name.strip() for name in value):
        raise SheetError("players", gettext_noop("must be a list of 3 or 4 player names in seat order"), "3.1.1")
    if len(value) not in TABLE_SIZES:
        raise SheetError("players", gettext_noop("a table has 3 or 4 players, not {size}"), "3.2.7", size=len(value))
    names = tuple(name.strip() for name in value)
    if len(set(names)) != len(names):
        raise SheetError(
            "players",
            gettext_noop("every player's name must be different, so the declarer is unambiguous"),
            "5.5.2",
        )
    return names


def _line(number: int, entry: object, players: tuple[str, ...]) -> SheetLine:
    size = len(players)
    dealer = dealer_seat(number, size)
    if not isinstance(entry, Mapping):
        raise RuleError(
            "game", gettext_noop("must be a JSON object: a game or {passed}"), "5.5.2", passed='{"passed": true}'
        )
    passed = entry.get("passed", False)
    if not isinstance(passed, bool):
        raise RuleError("passed", gettext_noop("must be true or false"), "3.3.7")
    if passed:
        extra = sorted(set(entry) - {"passed"})
        if extra:
            raise RuleError(
                field_name(extra[0]), gettext_noop("a passed-out deal has no declarer and no game"), "3.3.7"
            )
        return SheetLine(number=number, dealer=dealer, declarer=None, outcome=None)

    name = entry.get("declarer")
    if not isinstance(name, str) or name.strip() not in players:
        raise RuleError(
            "declarer",
            gettext_noop("{name} is not a player of this table: {players}"),
            "5.5.2",
            name=repr(name),
            players=", ".join(players),
        )
    declarer = players.index(name.strip()) + 1
    if declarer not in active_seats(number, size):
        raise RuleError(
            "declarer",
            gettext_noop("{name} deals game {number} and sits out at a table of four, so cannot be declarer"),
            "3.2.7",
            name=players[declarer - 1],
            number=number,
        )
    game = game_from_mapping({k: v for k, v in entry.items() if k not in ("declarer", "passed")})
    return SheetLine(number=number, dealer=dealer, declarer=declarer, outcome=evaluate(game))
