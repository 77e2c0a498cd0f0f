"""One row of a paper scoresheet (5.5.2) read in the order a reader checks it, and valued.

The columns of the printed sheet (English or German headers, :data:`SHEET_COLUMNS`), each
read into an unsaved :class:`scoring.models.Game` by a step of its own; the engine then
values the game (:func:`scoring.services.value`) and what the scorekeeper wrote (the game
value, schneider, schwarz, overbid, won/lost) is compared with it. Every problem is named
by its column. :mod:`transfer.paper_sheet` imports a whole sheet with these.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from core.params import number_param
from core.rule_messages import rule_message
from core.spreadsheets import Row, flag, whole_number
from scoring import services
from scoring.models import Game
from skat.rules import NULL_VALUES, Contract, RuleError
from skat.sheet import dealer_seat

SHEET_COLUMNS = {
    "deal": ("Deal", "Nr", "No", "Number", "Spielnummer", "Spiel-Nr", "Lfd Nr"),
    "dealer": ("Dealer", "Geber"),
    "declarer": ("Declarer", "Alleinspieler", "Spieler"),
    "contract": ("Contract", "Spiel", "Spielart", "Trumpf", "Game"),
    "tops_kind": ("With/without", "mit/ohne", "With or without"),
    "tops": ("Tops", "Spitzen"),
    "hand": ("Hand", "Handspiel"),
    "schneider_announced": ("Schneider announced", "Schneider angesagt"),
    "schwarz_announced": ("Schwarz announced", "Schwarz angesagt"),
    "ouvert": ("Ouvert", "Offen"),
    "declarer_points": ("Declarer card points", "Declarer points", "Card points", "Augen", "Augen Alleinspieler"),
    "declarer_tricks": ("Declarer tricks", "Tricks", "Stiche", "Stiche Alleinspieler"),
    "bid": ("Bid", "Reizwert", "Gereizt", "Gereizt bis"),
    "passed_out": ("Passed out", "Eingepasst", "Passe"),
    "value": ("Game value", "Spielwert", "Wert"),
    # The printed list's own columns (printing/documents/scoresheet.py): the base value
    # instead of the contract, the tops in a "with" or a "without" column, and what
    # the scorekeeper derived (schneider, schwarz, overbid, won/lost), checked here.
    "base": ("Base value", "Grundwert"),
    "tops_with": ("Tops with", "Spitzen mit", "mit"),
    "tops_without": ("Tops without", "Spitzen ohne", "ohne"),
    "schneider": ("Schneider",),
    "schwarz": ("Schwarz",),
    "overbid": ("Overbid", "Überreizt"),
    "score": ("Score", "Won / lost", "Gewonnen / verloren", "Ergebnis"),
}
REQUIRED = ("deal", "declarer")
#: 5.1.1, 5.1.2: the contract a base value stands for.
_BASE_CONTRACTS = {
    9: Contract.DIAMONDS,
    10: Contract.HEARTS,
    11: Contract.SPADES,
    12: Contract.CLUBS,
    24: Contract.GRAND,
}

CONTRACT_NAMES = {
    Contract.DIAMONDS: ("diamonds", "karo", "schellen", "♦"),
    Contract.HEARTS: ("hearts", "herz", "rot", "♥"),
    Contract.SPADES: ("spades", "pik", "grün", "grun", "♠"),
    Contract.CLUBS: ("clubs", "kreuz", "eichel", "♣"),
    Contract.GRAND: ("grand", "grand"),
    Contract.NULL: ("null", "nullspiel"),
}
_CONTRACTS = {name: contract for contract, names in CONTRACT_NAMES.items() for name in names}
_PASSED_WORDS = frozenset({"passed", "passed out", "eingepasst", "passe", "-"})
_TOPS_KINDS = {
    "with": Game.TopsKind.WITH,
    "mit": Game.TopsKind.WITH,
    "m": Game.TopsKind.WITH,
    "w": Game.TopsKind.WITH,
    "without": Game.TopsKind.WITHOUT,
    "ohne": Game.TopsKind.WITHOUT,
    "o": Game.TopsKind.WITHOUT,
}
_FLAGS = ("hand", "schneider_announced", "schwarz_announced", "ouvert")
_NUMBERS = ("tops", "declarer_points", "declarer_tricks", "bid")
#: The column names used in messages (the engine's field names where they differ).
_COLUMN_OF = {"declarer_seat": "declarer", "number": "deal", "game": "contract"}


def _label(key: str) -> str:
    return SHEET_COLUMNS.get(key, (key.replace("_", " "),))[0].lower()


def _problem(key: str, message: str) -> str:
    return f"{_label(key)}: {message}"


def _declarer(value, players: dict[int, str]) -> int:
    """A seat from a seat number or a player's name (case and spaces ignored)."""
    text = " ".join(str(value).split()).casefold()
    seat = number_param(text)  # ASCII digits only: int("²") and int("1" * 5000) raise
    if seat in players:
        return seat
    matches = [seat for seat, name in players.items() if " ".join(name.split()).casefold() == text]
    if len(matches) == 1:
        return matches[0]
    raise ValueError


def parse_row(row: Row, players: dict[int, str], expected: int, size: int, deals: int) -> tuple[Game, list[str]]:
    """The row as an unsaved game valued by the engine, or the problems found in it.

    In the order a reader checks a paper line: the deal and its dealer, passed out or
    not, the declarer, the contract (or its base value), the tops, the ticks and numbers,
    then the engine's value against what the scorekeeper wrote.
    """
    problems = _deal_problems(row, expected, deals)
    problems += _dealer_problems(row, players, expected, size)
    game = Game(number=expected)
    contract_text = str(row.get("contract") or "").strip().casefold()
    if _passed_out(row, contract_text, problems):
        problems += _passed_out_problems(row, contract_text)
        game.passed_out = True
        if not problems:
            services.value(game, size)
        return game, problems
    _read_declarer(row, players, game, problems)
    base, base_contract = _read_contract(row, contract_text, game, problems)
    _read_tops(row, game, problems)
    _read_ticks_and_numbers(row, game, problems)
    if problems:
        return game, problems
    return game, _valued(row, game, size, base, base_contract)


def _deal_problems(row: Row, expected: int, deals: int) -> list[str]:
    """The deal's number: the next in turn, and one the table plays (3.2.1)."""
    problems = []
    try:
        number = whole_number(row.get("deal"))
    except ValueError:
        number = None
    if number != expected:
        problems.append(
            _problem(
                "deal",
                _("expected deal %(expected)s here, not %(given)s; deals follow each other in turn (3.2.1)")
                % {"expected": expected, "given": row.get("deal") if row.get("deal") is not None else _("nothing")},
            )
        )
    if expected > deals:
        problems.append(
            _problem(
                "deal", _("this table plays %(deals)s deals, not %(n)s (3.2.1)") % {"deals": deals, "n": expected}
            )
        )
    return problems


def _dealer_problems(row: Row, players: dict[int, str], expected: int, size: int) -> list[str]:
    """The dealer, when the sheet names one: the seat whose turn it is (3.2.1)."""
    dealer = row.get("dealer")
    if dealer is None:
        return []
    try:
        seat = _declarer(dealer, players)
    except ValueError:
        seat = None
    should = dealer_seat(expected, size)
    if seat == should:
        return []
    return [
        _problem(
            "dealer",
            _("deal %(deal)s is dealt by seat %(seat)s (%(name)s), not %(given)s (3.2.1)")
            % {"deal": expected, "seat": should, "name": players[should], "given": dealer},
        )
    ]


def _passed_out(row: Row, contract_text: str, problems: list[str]) -> bool:
    """Whether the deal was passed out: ticked, or written in the contract's column."""
    passed = flag(row.get("passed_out"))
    if passed is None:
        problems.append(
            _problem(
                "passed_out", _("%(value)s is not a tick; use x or leave it empty") % {"value": row.get("passed_out")}
            )
        )
        passed = False
    return passed or contract_text in _PASSED_WORDS


def _passed_out_problems(row: Row, contract_text: str) -> list[str]:
    """A passed-out deal with a declarer or a game written beside it (3.3.7)."""
    filled = [
        key for key in ("declarer", "tops", "declarer_points", "declarer_tricks", "bid") if row.get(key) is not None
    ]
    if contract_text and contract_text not in _PASSED_WORDS:
        filled.insert(0, "contract")
    if filled:
        return [_problem(filled[0], _("a passed-out deal has no declarer and no game (3.3.7)"))]
    return []


def _read_declarer(row: Row, players: dict[int, str], game: Game, problems: list[str]) -> None:
    """The declarer, by seat or name (5.5.1, 5.5.2)."""
    if row.get("declarer") is None:
        problems.append(_problem("declarer", _("empty; name the declarer or mark the deal passed out (5.5.1)")))
        return
    try:
        game.declarer_seat = _declarer(row.get("declarer"), players)
    except ValueError:
        seat_list = ", ".join(f"{seat} {name}" for seat, name in sorted(players.items()))
        problems.append(
            _problem(
                "declarer",
                _("%(given)s is not a player of this table (%(players)s) (5.5.2)")
                % {"given": row.get("declarer"), "players": seat_list},
            )
        )


def _read_contract(
    row: Row, contract_text: str, game: Game, problems: list[str]
) -> tuple[int | None, Contract | None]:
    """The contract, by name or by the printed list's base value (5.1.1, 5.1.2): (base, its contract)."""
    contract = _CONTRACTS.get(contract_text)
    try:
        base = whole_number(row.get("base"))
    except ValueError:
        base = -1
    base_contract = _BASE_CONTRACTS.get(base) or (Contract.NULL if base in NULL_VALUES.values() else None)
    if base is not None and base_contract is None:
        problems.append(
            _problem("base", _("%(given)s is not a base value (5.1.1, 5.1.2)") % {"given": row.get("base")})
        )
    elif not contract_text and base_contract is not None:
        contract = base_contract
    elif base_contract is not None and contract is not None and base_contract is not contract:
        problems.append(
            _problem(
                "base",
                _("base value %(base)s does not fit the contract %(contract)s (5.1.1)")
                % {"base": base, "contract": row.get("contract")},
            )
        )
    if contract is None and not (base is not None and base_contract is None):
        problems.append(
            _problem(
                "contract",
                _(
                    "%(given)s is not a contract; write Diamonds/Karo, Hearts/Herz, Spades/Pik, "
                    "Clubs/Kreuz, Grand or Null (2.1.1)"
                )
                % {"given": row.get("contract") if row.get("contract") is not None else _("nothing")},
            )
        )
    elif contract is not None:
        game.contract = contract.value
    return base, base_contract


def _read_tops(row: Row, game: Game, problems: list[str]) -> None:
    """The tops, in a with or a without column of their own or with a with/without column (2.4.1)."""
    for key, kind in (("tops_with", Game.TopsKind.WITH), ("tops_without", Game.TopsKind.WITHOUT)):
        if row.get(key) is None:
            continue
        if row.get("tops") is not None or game.tops is not None:
            problems.append(_problem(key, _("the tops are written twice; fill in one column only (2.4.1)")))
            continue
        try:
            game.tops = whole_number(row.get(key))
            game.tops_kind = kind
        except ValueError:
            problems.append(_problem(key, _("%(value)s is not a whole number") % {"value": row.get(key)}))
    kind = row.get("tops_kind")
    if kind is None:
        return
    tops_kind = _TOPS_KINDS.get(str(kind).strip().casefold())
    if tops_kind is None:
        problems.append(
            _problem("tops_kind", _("%(given)s: write with/mit or without/ohne (2.4.1)") % {"given": kind})
        )
    else:
        game.tops_kind = tops_kind


def _read_ticks_and_numbers(row: Row, game: Game, problems: list[str]) -> None:
    """Hand, the announcements and ouvert (ticks), the tops, card points, tricks and bid (numbers)."""
    for key in _FLAGS:
        value = flag(row.get(key))
        if value is None:
            problems.append(
                _problem(key, _("%(value)s is not a tick; use x or leave it empty") % {"value": row.get(key)})
            )
        else:
            setattr(game, key, value)
    for key in _NUMBERS:
        if key == "tops" and row.get(key) is None:
            continue  # perhaps given in a with or without column
        try:
            setattr(game, key, whole_number(row.get(key)))
        except ValueError:
            problems.append(_problem(key, _("%(value)s is not a whole number") % {"value": row.get(key)}))


def _valued(row: Row, game: Game, size: int, base: int | None, base_contract: Contract | None) -> list[str]:
    """The engine's value of a well-read row, and each difference from what the sheet wrote."""
    try:
        services.value(game, size)
    except RuleError as error:
        return [_problem(_COLUMN_OF.get(error.field, error.field), rule_message(error))]
    problems = []
    if base_contract is Contract.NULL and base != game.value:
        problems.append(
            _problem(
                "base",
                _("a null game with these ticks is worth %(value)s, not %(base)s (5.1.2)")
                % {"value": game.value, "base": base},
            )
        )
    problems.extend(_written_results(row, game))
    return problems


def _written_results(row: Row, game: Game) -> list[str]:
    """What the scorekeeper worked out on paper, against the engine: each difference is a problem."""
    problems = []
    checks = [("value", game.value), ("schneider", game.schneider), ("schwarz", game.schwarz)]
    checks.append(("overbid", game.overbid))
    for key, engine in checks:
        written = row.get(key)
        if key not in row.values or (written is None and key == "value"):
            continue  # not on this sheet, or no value written
        if isinstance(engine, bool):
            ok = flag(written) is engine
            shown = "x" if engine else _("empty")
        else:
            try:
                ok = whole_number(written) == engine
            except ValueError:
                ok = False
            shown = engine
        if not ok:
            problems.append(_mismatch(key, written, shown))
    written = row.get("score")
    if written is not None:
        word = str(written).strip().casefold()
        if word in _WON_WORDS or word in _LOST_WORDS:
            ok = (word in _WON_WORDS) is game.won
        else:
            try:
                ok = whole_number(written) == game.score
            except ValueError:
                ok = False
        if not ok:
            problems.append(_mismatch("score", written, game.score))
    return problems


_WON_WORDS = frozenset({"won", "gewonnen", "+", "g"})
_LOST_WORDS = frozenset({"lost", "verloren", "v"})


def _mismatch(key: str, written, engine) -> str:
    return _problem(
        key,
        _("the sheet says %(written)s, the rules give %(value)s (5.1-5.4); correct the sheet or the row")
        % {"written": written if written is not None else _("empty"), "value": engine},
    )
