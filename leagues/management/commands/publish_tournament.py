"""``manage.py publish_tournament ID URL [--matchday N]``: send a tournament to the league server.

A match day imported from the server's match-day package (``import_matchday``) is named
by its key, which the hall keeps: no ``--matchday`` is needed then.

The host's token comes from ``--token`` or the environment (``LEAGUE_TOKEN``, kept out of
the process list). Exit 0 stored or already stored, 1 refused (the server's reason), 3 no
connection (send again later).
"""

from __future__ import annotations

import json
import os

from django.core.management.base import BaseCommand, CommandError

from leagues.models import MatchDay
from leagues.sending import NoConnection, send, tournament_file
from tournaments.models import Tournament
from transfer.exports import PracticeNotExported

EXIT_REFUSED = 1
EXIT_OFFLINE = 3


class Command(BaseCommand):
    help = "Publish a tournament (a match day) to the league server: its tournament file, with the host's token."

    def add_arguments(self, parser) -> None:
        parser.add_argument("tournament_id", type=int)
        parser.add_argument(
            "url", help="the league server's endpoint, e.g. https://liga.example.org/league/api/publish/"
        )
        parser.add_argument(
            "--matchday",
            type=int,
            help="the match day's id on the league server; without it a match day imported from its package "
            "is named by its key, any other the server finds by the file's teams and date",
        )
        parser.add_argument(
            "--token", default=os.environ.get("LEAGUE_TOKEN"), help="the host's token (or LEAGUE_TOKEN)"
        )

    def handle(self, *args, tournament_id: int, url: str, matchday, token, **options) -> None:
        tournament = Tournament.objects.filter(pk=tournament_id).first()
        if tournament is None:
            raise CommandError(f"There is no tournament {tournament_id}.")
        if not token:
            raise CommandError("token: give --token or set LEAGUE_TOKEN (the host's token from the league manager)")
        try:
            key = MatchDay.objects.filter(tournament=tournament).values_list("key", flat=True).first()
            answer = send(tournament_file(tournament), url, token, match_day=matchday, key=key)
        except PracticeNotExported as refused:
            raise CommandError(str(refused), returncode=EXIT_REFUSED) from None
        except NoConnection as offline:
            raise CommandError(str(offline), returncode=EXIT_OFFLINE) from None
        self.stdout.write(json.dumps(answer.body, ensure_ascii=False))
        if not answer.stored:
            raise CommandError(f"refused ({answer.status}): {answer.body.get('error')}", returncode=EXIT_REFUSED)
