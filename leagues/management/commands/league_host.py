"""``manage.py league_host LEAGUE_ID NAME``: a host of the league and its publication token.

The token is printed once; the server keeps only its SHA-256. Give it to the host's
director for ``publish_tournament`` (or ``LEAGUE_TOKEN``).
"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from core.name_checks import name_problem
from leagues.models import Host, League
from leagues.publication import new_host


class Command(BaseCommand):
    help = "Create a host of a league and print its publication token (once)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("league_id", type=int)
        parser.add_argument("name")

    def handle(self, *args, league_id: int, name: str, **options) -> None:
        league = League.objects.filter(pk=league_id).first()
        if league is None:
            raise CommandError(f"There is no league {league_id}.")
        if problem := name_problem(name):
            raise CommandError(f"name: {problem}")
        # Names are unique in any case (leagues 0002): "sc herz dame" is "SC Herz Dame".
        twin = Host.objects.filter(league=league, name__iexact=name).first()
        if twin is not None:
            raise CommandError(
                f"name: {league} has a host {twin.name} already (host {twin.pk}); "
                "replace its token on the league's Hosts page, or choose another name"
            )
        host, token = new_host(league, name)
        self.stdout.write(f"host {host.pk} {host.name}: token {token}")
