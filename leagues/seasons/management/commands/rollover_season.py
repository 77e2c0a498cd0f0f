"""``manage.py rollover_season LEAGUE_ID SEASON``: the next season of a finished one (leagues.seasons.rollover)."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from leagues.models import League
from leagues.seasons.rollover import rollover
from skat.rules import RuleError


class Command(BaseCommand):
    help = "Set up the next season of a finished league season: its groups, teams and rosters, promoted and relegated."

    def add_arguments(self, parser) -> None:
        parser.add_argument("league", type=int, help="the league's id (its pages' address: /league/ID/)")
        parser.add_argument("season", help="the new season's name, e.g. 2027")

    def handle(self, *args, league: int, season: str, **options) -> None:
        found = League.objects.filter(pk=league).first()
        if found is None:
            raise CommandError(f"league: no league has the id {league}")
        try:
            done = rollover(found, season)
        except RuleError as error:
            raise CommandError(str(error)) from None
        self.stdout.write(f"{done.league} set up (id {done.league.pk}).")
        for line in done.moved:
            self.stdout.write(f"  {line}")
        for line in done.flagged:
            self.stdout.write(f"  to check: {line}")
