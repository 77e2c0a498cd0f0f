"""``manage.py import_tournament FILE.xlsx``: rebuild a tournament from its league workbook.

Every game is valued again by the engine; values in the file that differ are listed
(the engine's are stored). Exit status 1 and nothing written when the file is refused.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import ngettext

from transfer.tournament_file import TransferError, import_tournament


class Command(BaseCommand):
    help = "Create a tournament from a workbook written by export_tournament (all or nothing)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("file", help="the .xlsx file to read")
        parser.add_argument("--director", action="append", default=[], help="username who directs it (repeatable)")

    def handle(self, *args, file: str, director: list[str], **options) -> None:
        users = list(get_user_model().objects.filter(username__in=director))
        unknown = set(director) - {u.get_username() for u in users}
        if unknown:
            raise CommandError(f"Unknown user(s): {', '.join(sorted(unknown))}")
        try:
            result = import_tournament(file, directors=users)
        except TransferError as error:
            raise CommandError(f"Nothing imported: {error}") from None
        differing = len(result.differences)
        for difference in result.differences:
            self.stderr.write(difference)
        counts = ", ".join(
            (
                ngettext("%(n)s player", "%(n)s players", result.players) % {"n": result.players},
                ngettext("%(n)s game", "%(n)s games", result.games) % {"n": result.games},
                ngettext("%(n)s value differing from the file", "%(n)s values differing from the file", differing)
                % {"n": differing},
            )
        )
        self.stdout.write(
            f"Imported {result.tournament} as tournament {result.tournament.pk}: {counts} (the engine's are stored)."
        )
