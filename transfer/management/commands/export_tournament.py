"""``manage.py export_tournament ID FILE.xlsx``: the league workbook of one tournament."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from tournaments.models import Tournament
from transfer.exports import PracticeNotExported, league_xlsx, refuse_practice


class Command(BaseCommand):
    help = "Write a tournament's league workbook (Ranking, Results, Games, Tournament, Players, Tables)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("tournament_id", type=int)
        parser.add_argument("file", help="the .xlsx file to write")

    def handle(self, *args, tournament_id: int, file: str, **options) -> None:
        tournament = Tournament.objects.filter(pk=tournament_id).first()
        if tournament is None:
            raise CommandError(f"There is no tournament {tournament_id}.")
        try:
            refuse_practice(tournament)
        except PracticeNotExported as refused:
            raise CommandError(str(refused)) from None
        with open(file, "wb") as out:
            league_xlsx(tournament, out)
        self.stdout.write(f"{tournament} -> {file}")
