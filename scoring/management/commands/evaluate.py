"""``manage.py evaluate``: the rules engine on the command line, as ``python -m skat``.

A thin wrapper around :func:`skat.cli.answer`: the same options, the same answers on
stdout and the same exit codes (0 valid, 1 a game or document refused, 2 input that is
not JSON); see :mod:`skat.cli`.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from skat import cli


class Command(BaseCommand):
    help = (
        "Value Skat games by the Skatordnung: JSON Lines of games in, JSON Lines of answers out; "
        "or a whole scoresheet with --sheet (the same as python -m skat)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        cli.add_arguments(parser)

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            text, code = cli.answer(options["file"], sheet=options["sheet"], matchday=options["matchday"])
        except cli.InputError as error:
            raise CommandError(str(error), returncode=error.code) from None
        if text:
            self.stdout.write(text)
        if code:
            # Not an error message: the answers are already on stdout.
            raise SystemExit(code)
