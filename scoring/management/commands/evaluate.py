"""``manage.py evaluate``: the rules engine on the command line.

For referees checking a disputed entry and for scripts that validate sheets.

- ``evaluate [FILE|-]``: JSON Lines in, one game per line; JSON Lines out, one answer
  per game in the same order: ``{"won", "value", "score", "overbid", "multiplier"}``
  or ``{"error": "<field>: <message> (<paragraph>)"}``. Blank lines are skipped.
  Exit 0 when every game is valid, 1 when any line was answered with an error, 2 when
  the input is not JSON Lines (nothing is printed on stdout then).
- ``evaluate --sheet FILE``: one JSON scoresheet; prints the players' points, won,
  lost, bonus and rating and the 5.5.5 settlement, or ``{"error": "game 7: ..."}``
  (exit 1); exit 2 when the file is not JSON.
- ``evaluate --matchday FILE``: one JSON league match day (teams, tie, series of
  sheets); prints the teams ranked as the table ranks them with their series game
  points, game points and league points won:lost (:mod:`scoring.league`), or
  ``{"error": "series 2, table 3: ..."}`` (exit 1); exit 2 when the file is not JSON.
"""

from __future__ import annotations

import json
import sys
from typing import IO, Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from scoring.league import LeagueError, evaluate_match_day
from scoring.rules import RuleError, evaluate, game_from_mapping
from scoring.sheet import SheetError, evaluate_sheet

EXIT_INVALID_GAME = 1
EXIT_NOT_JSON = 2


def _json(answer: dict) -> str:
    """One JSON line, readable (umlauts as they are) and always encodable: a lone
    surrogate from a ``"\\ud800"`` escape in the input (echoed in an error) stays an
    escape instead of breaking the UTF-8 output."""
    text = json.dumps(answer, ensure_ascii=False)
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


class Command(BaseCommand):
    help = (
        "Value Skat games by the Skatordnung: JSON Lines of games in, JSON Lines of answers out; "
        "or a whole scoresheet with --sheet."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", nargs="?", default="-", help="JSON Lines file of games, or - for standard input")
        parser.add_argument("--sheet", metavar="FILE", help="evaluate one JSON scoresheet (players and games)")
        parser.add_argument(
            "--matchday", metavar="FILE", help="evaluate one JSON league match day (teams, tie, series of sheets)"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["sheet"] and options["matchday"]:
            raise CommandError("give --sheet or --matchday, not both", returncode=EXIT_NOT_JSON)
        if options["matchday"]:
            code = self._document(options["matchday"], evaluate_match_day, LeagueError, "a match day")
        elif options["sheet"]:
            code = self._document(options["sheet"], lambda data: evaluate_sheet(data).as_dict(), SheetError, "a sheet")
        else:
            code = self._lines(options["file"])
        if code:
            # Not an error message: the answers are already on stdout.
            raise SystemExit(code)

    def _lines(self, path: str) -> int:
        text = self._read(path)
        games: list[tuple[int, Any]] = []
        # JSON Lines ends lines with \n (or \r\n) only: splitlines() would also cut at
        # U+0085, U+2028 and other characters a JSON string may hold as they are.
        for number, line in enumerate(text.split("\n"), start=1):
            if not line.strip():
                continue
            try:
                games.append((number, json.loads(line)))
            except json.JSONDecodeError as error:
                raise CommandError(
                    f"line {number}: not JSON ({error.msg}); the input must be JSON Lines, one game per line",
                    returncode=EXIT_NOT_JSON,
                ) from None
        code = 0
        out = []
        for _number, data in games:
            try:
                if not isinstance(data, dict):
                    raise RuleError("game", 'must be a JSON object such as {"contract": "grand", ...}', "5.5.2")
                answer: dict[str, object] = evaluate(game_from_mapping(data)).as_dict()
            except RuleError as error:
                answer = {"error": str(error)}
                code = EXIT_INVALID_GAME
            out.append(_json(answer))
        if out:
            self.stdout.write("\n".join(out))
        return code

    def _document(self, path: str, evaluate_one, refused: type[Exception], what: str) -> int:
        """One JSON document (a sheet or a match day) in, one JSON answer out."""
        text = self._read(path)
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise CommandError(
                f"{path}: not JSON ({error.msg} at line {error.lineno}); {what} is one JSON object",
                returncode=EXIT_NOT_JSON,
            ) from None
        try:
            answer = evaluate_one(data)
        except refused as error:
            self.stdout.write(_json({"error": str(error)}))
            return EXIT_INVALID_GAME
        self.stdout.write(_json(answer))
        return 0

    def _read(self, path: str) -> str:
        try:
            if path == "-":
                stream: IO[bytes] = sys.stdin.buffer
                raw = stream.read()
            else:
                with open(path, "rb") as handle:
                    raw = handle.read()
            return raw.decode("utf-8-sig")
        except OSError as error:
            raise CommandError(f"{path}: cannot read ({error.strerror})", returncode=EXIT_NOT_JSON) from None
        except UnicodeDecodeError:
            raise CommandError(f"{path}: not UTF-8 text, so not JSON Lines", returncode=EXIT_NOT_JSON) from None
