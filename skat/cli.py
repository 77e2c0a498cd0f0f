"""``python -m skat``: the rules engine on the command line, no Django needed.

For referees checking a disputed entry and for scripts that validate sheets; the office's
``manage.py evaluate`` is a thin wrapper around :func:`answer` and answers the same.

- ``python -m skat [FILE|-]``: JSON Lines in, one game per line; JSON Lines out, one
  answer per game in the same order: ``{"won", "value", "score", "overbid", "multiplier"}``
  or ``{"error": "<field>: <message> (<paragraph>)"}``. Blank lines are skipped. Exit 0
  when every game is valid, 1 when any line was answered with an error, 2 when the input
  is not JSON Lines (nothing is printed on stdout then).
- ``python -m skat --sheet FILE``: one JSON scoresheet; prints the players' points, won,
  lost, bonus and rating and the 5.5.5 settlement, or ``{"error": "game 7: ..."}`` (exit
  1); exit 2 when the file is not JSON.
- ``python -m skat --matchday FILE``: one JSON league match day (teams, tie, series of
  sheets); prints the teams ranked as the table ranks them with their series game points,
  game points and league points won:lost (:mod:`skat.league`), or
  ``{"error": "series 2, table 3: ..."}`` (exit 1); exit 2 when the file is not JSON.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from typing import IO, Any

from . import __version__
from .league import LeagueError, evaluate_match_day
from .rules import RuleError, evaluate, game_from_mapping
from .sheet import SheetError, evaluate_sheet

EXIT_INVALID_GAME = 1
EXIT_NOT_JSON = 2


class InputError(Exception):
    """The input cannot be read as asked (not JSON, not UTF-8, no such file): exit ``code``,
    nothing on stdout."""

    def __init__(self, message: str, code: int = EXIT_NOT_JSON) -> None:
        super().__init__(message)
        self.code = code


def _json(answer: dict) -> str:
    """One JSON line, readable (umlauts as they are) and always encodable: a lone
    surrogate from a ``"\\ud800"`` escape in the input (echoed in an error) stays an
    escape instead of breaking the UTF-8 output."""
    text = json.dumps(answer, ensure_ascii=False)
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def answer(
    file: str = "-", *, sheet: str | None = None, matchday: str | None = None, stdin: IO[bytes] | None = None
) -> tuple[str, int]:
    """What to print on stdout and the exit code, for games (``file``), a sheet or a match
    day. Raises :class:`InputError` when the input cannot be read as asked."""
    if sheet and matchday:
        raise InputError("give --sheet or --matchday, not both")
    if matchday:
        return _document(_read(matchday, stdin), matchday, evaluate_match_day, LeagueError, "a match day")
    if sheet:
        return _document(
            _read(sheet, stdin), sheet, lambda data: evaluate_sheet(data).as_dict(), SheetError, "a sheet"
        )
    return _lines(_read(file, stdin))


def _lines(text: str) -> tuple[str, int]:
    games: list[Any] = []
    # JSON Lines ends lines with \n (or \r\n) only: splitlines() would also cut at
    # U+0085, U+2028 and other characters a JSON string may hold as they are.
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        try:
            games.append(json.loads(line))
        except json.JSONDecodeError as error:
            raise InputError(
                f"line {number}: not JSON ({error.msg}); the input must be JSON Lines, one game per line"
            ) from None
    code = 0
    out = []
    for data in games:
        try:
            if not isinstance(data, dict):
                raise RuleError("game", 'must be a JSON object such as {"contract": "grand", ...}', "5.5.2")
            result: dict[str, object] = evaluate(game_from_mapping(data)).as_dict()
        except RuleError as error:
            result = {"error": str(error)}
            code = EXIT_INVALID_GAME
        out.append(_json(result))
    return "\n".join(out), code


def _document(
    text: str, path: str, evaluate_one: Callable[[Any], dict], refused: type[Exception], what: str
) -> tuple[str, int]:
    """One JSON document (a sheet or a match day) in, one JSON answer out."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise InputError(f"{path}: not JSON ({error.msg} at line {error.lineno}); {what} is one JSON object") from None
    try:
        return _json(evaluate_one(data)), 0
    except refused as error:
        return _json({"error": str(error)}), EXIT_INVALID_GAME


def _read(path: str, stdin: IO[bytes] | None) -> str:
    try:
        if path == "-":
            raw = (stdin if stdin is not None else sys.stdin.buffer).read()
        else:
            with open(path, "rb") as handle:
                raw = handle.read()
        return raw.decode("utf-8-sig")
    except OSError as error:
        raise InputError(f"{path}: cannot read ({error.strerror})") from None
    except UnicodeDecodeError:
        raise InputError(f"{path}: not UTF-8 text, so not JSON Lines") from None


def parser(prog: str = "python -m skat") -> argparse.ArgumentParser:
    """The options, shared with ``manage.py evaluate``."""
    parsed = argparse.ArgumentParser(
        prog=prog,
        description="Value Skat games by the Skatordnung: JSON Lines of games in, JSON Lines of answers out; "
        "or a whole scoresheet with --sheet, or a league match day with --matchday.",
    )
    add_arguments(parsed)
    parsed.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    return parsed


def add_arguments(parsed: argparse.ArgumentParser) -> None:
    parsed.add_argument("file", nargs="?", default="-", help="JSON Lines file of games, or - for standard input")
    parsed.add_argument("--sheet", metavar="FILE", help="evaluate one JSON scoresheet (players and games)")
    parsed.add_argument(
        "--matchday", metavar="FILE", help="evaluate one JSON league match day (teams, tie, series of sheets)"
    )


def main(argv: Sequence[str] | None = None, stdout: IO[str] | None = None, stderr: IO[str] | None = None) -> int:
    """Run as ``python -m skat``: print the answers, answer the exit code."""
    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr
    options = parser().parse_args(argv)
    try:
        text, code = answer(options.file, sheet=options.sheet, matchday=options.matchday)
    except InputError as error:
        stderr.write(f"error: {error}\n")
        return error.code
    if text:
        stdout.write(text + "\n")
    return code
