"""``manage.py import_matchday (FILE | URL) --user NAME [--token T] [--matchday KEY]``: the hall
office imports the league server's match-day package in one step.

From a file (the league manager's download) or from the server's endpoint
(``https://liga.example.org/league/api/package/``) with the host's token (``--token`` or
``LEAGUE_TOKEN``, kept out of the process list). ``--user``: the hall's user who runs the
league there (made its manager when the league is new). Exit 0 imported (or nothing to
change), 1 refused (the field and the rule), 3 no connection.
"""

from __future__ import annotations

import os
from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from leagues.packages.fetching import NoConnection, fetch
from leagues.packages.imports import import_package
from leagues.packages.schema import LIMITS, PackageError, read_package

EXIT_REFUSED = 1
EXIT_OFFLINE = 3


class Command(BaseCommand):
    help = "Import a match-day package of the league server (a file, or the server's address with the host's token)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("source", help="the package's file, or the server's endpoint .../league/api/package/")
        parser.add_argument("--user", required=True, help="the hall's user who runs the league on this office")
        parser.add_argument(
            "--token", default=os.environ.get("LEAGUE_TOKEN"), help="the host's token (or LEAGUE_TOKEN)"
        )
        parser.add_argument("--matchday", default="", help="only this match day of the host's (its key)")

    def handle(self, *args, source: str, user: str, token, matchday: str, **options) -> None:
        account = get_user_model().objects.filter(username=user, is_active=True).first()
        if account is None:
            raise CommandError(f"user: there is no active user {user} on this office", returncode=EXIT_REFUSED)
        try:
            if source.startswith(("http://", "https://")):
                if not token:
                    raise CommandError("token: give --token or set LEAGUE_TOKEN (the host's token)")
                content = fetch(source, token, key=matchday)
            else:
                content = _read(Path(source))
            done = import_package(read_package(content), account)
        except NoConnection as offline:
            raise CommandError(str(offline), returncode=EXIT_OFFLINE) from None
        except PackageError as refused:
            raise CommandError(f"refused: {refused}", returncode=EXIT_REFUSED) from None
        for line in done.changes or ["nothing changed: this office has the package already"]:
            self.stdout.write(line)
        for day in done.match_days:
            self.stdout.write(f"{day} ({day.date:%Y-%m-%d}): tournament {day.tournament_id}, key {day.key}")


def _read(path: Path) -> bytes:
    try:
        with path.open("rb") as handle:
            return handle.read(LIMITS.size + 1)
    except OSError as error:
        raise CommandError(f"file: {error.strerror}", returncode=EXIT_REFUSED) from None
