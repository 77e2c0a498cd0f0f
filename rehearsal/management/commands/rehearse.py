"""``manage.py rehearse``: a practice evening, played through the table links to the end.

``--copy ID`` makes a practice copy of tournament ID (its rules, teams and players, no
series), otherwise a new practice tournament of ``--players N`` made-up players; then
each series is drawn, its tables play at ``--pace`` seconds per deal (0: as fast as the
office answers), with corrections, disputes and PIN confirmations, and it is finished.
``--prepare`` only makes the practice tournament (play it from its dashboard's button);
``--practice ID`` plays a practice tournament made before. ``--url`` sends the phones'
requests to the running office (same database); without it they go through this
process's own Django. One run per tournament: a tournament being played (from its
dashboard or another ``rehearse``) is refused. Prints a summary; exits 1 if the office answered any 5xx, 2 if it
refused what a phone expects it to take.
"""

from __future__ import annotations

import functools
import threading

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from core.rule_messages import rule_message
from rehearsal import claims
from rehearsal.copies import new_practice, practice_copy
from rehearsal.evening import play
from rehearsal.phones import InProcess, OverHttp
from skat.rules import RuleError
from tournaments.models import Tournament

#: The exit status when the office answered no 5xx but refused what a phone expects it to
#: take (a redirect to HTTPS, a CSRF refusal): the evening was not played as meant.
EXIT_REFUSED = 2


class Command(BaseCommand):
    help = "Play a practice evening through the table links: a practice copy of a tournament, or N made-up players."

    def add_arguments(self, parser) -> None:
        source = parser.add_mutually_exclusive_group()
        source.add_argument(
            "--copy", type=int, metavar="TOURNAMENT_ID", help="make a practice copy of this tournament"
        )
        source.add_argument("--practice", type=int, metavar="TOURNAMENT_ID", help="play this practice tournament")
        parser.add_argument("--players", type=int, default=40, help="players of a new practice tournament (40)")
        parser.add_argument("--series", type=int, help="series to play (a new one: 3; a copy: the tournament's)")
        parser.add_argument("--rounds", type=int, default=12, help="rounds per series of a new one (12, 3.2.1)")
        parser.add_argument("--pace", type=float, default=0.0, help="seconds per deal at each table (0: at once)")
        parser.add_argument("--seed", type=int, default=1, help="the made-up deals' seed")
        parser.add_argument("--director", help="a user name to direct the new practice tournament")
        parser.add_argument("--url", help="the running office (e.g. http://127.0.0.1:8000): the phones post there")
        parser.add_argument("--prepare", action="store_true", help="only make the practice tournament; play none")

    def handle(self, *args, **options) -> None:
        if options["pace"] < 0:
            raise CommandError("--pace: seconds per deal, 0 or more")
        if options["series"] is not None and not 1 <= options["series"] <= 20:
            raise CommandError("--series: 1 to 20 series")
        tournament = self._tournament(options)
        self.stdout.write(f"Practice tournament {tournament.pk}: {tournament.name} (/t/{tournament.pk}/)")
        if options["prepare"]:
            return
        transport = functools.partial(OverHttp, options["url"]) if options["url"] else InProcess
        try:
            claimed = claims.claim(tournament.pk)
        except claims.Busy as busy:
            raise CommandError(
                f"tournament {tournament.pk} is being played already ({busy.holder}); stop it first"
            ) from None
        stop = threading.Event()
        try:
            with claims.held(claimed, stop) as keeper:
                summary = play(
                    tournament,
                    pace=options["pace"],
                    seed=options["seed"],
                    transport=transport,
                    stop=stop,
                    log=self.stdout.write,
                    tick=keeper.tick,
                )
        except RuleError as refused:  # a series that cannot be drawn (too few players, 3.1.1)
            raise CommandError(rule_message(refused)) from None
        for line in summary.lines():
            self.stdout.write(line)
        for error in summary.tally.server_errors[:20]:
            self.stderr.write(error)
        for refusal in summary.tally.refused[:10]:
            self.stderr.write(f"refused: {refusal}")
        if summary.server_errors:
            raise CommandError(f"the office answered {summary.server_errors} requests with a server error (5xx)")
        if summary.tally.refused:
            raise CommandError(
                f"the office refused {len(summary.tally.refused)} requests a phone expects it to take (see above)",
                returncode=EXIT_REFUSED,
            )

    def _tournament(self, options) -> Tournament:
        if options["practice"] is not None:
            tournament = Tournament.objects.filter(pk=options["practice"]).first()
            if tournament is None or not tournament.practice:
                raise CommandError(f"--practice: there is no practice tournament {options['practice']}")
            return tournament
        if options["copy"] is not None:
            source = Tournament.objects.filter(pk=options["copy"]).first()
            if source is None:
                raise CommandError(f"--copy: there is no tournament {options['copy']}")
            if not source.registrations.exists():
                raise CommandError(f"--copy: tournament {source.pk} has no players registered to play")
            return practice_copy(source, series_count=options["series"])
        if not 3 <= options["players"] <= 5000:
            raise CommandError("--players: 3 to 5000 players")
        if not 1 <= options["rounds"] <= 30:
            raise CommandError("--rounds: 1 to 30 rounds per series")
        director = None
        if options["director"]:
            director = get_user_model().objects.filter(username=options["director"]).first()
            if director is None:
                raise CommandError(f"--director: there is no user {options['director']}")
        return new_practice(
            options["players"],
            series_count=options["series"] or 3,
            rounds=options["rounds"],
            seed=options["seed"],
            director=director,
        )
