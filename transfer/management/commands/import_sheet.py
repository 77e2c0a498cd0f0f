"""``manage.py import_sheet TOURNAMENT SERIES TABLE FILE``: a paper scoresheet into an empty table."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import ngettext

from core.spreadsheets import SpreadsheetError
from tournaments.models import Table
from transfer.paper_sheet import import_sheet


class Command(BaseCommand):
    help = "Import one table's finished paper scoresheet (CSV or XLSX), every row valued by the engine."

    def add_arguments(self, parser) -> None:
        parser.add_argument("tournament_id", type=int)
        parser.add_argument("series", type=int)
        parser.add_argument("table", type=int)
        parser.add_argument("file")

    def handle(self, *args, tournament_id: int, series: int, table: int, file: str, **options) -> None:
        target = Table.objects.filter(series__tournament_id=tournament_id, series__number=series, number=table).first()
        if target is None:
            raise CommandError(f"Tournament {tournament_id} has no table {table} in series {series}.")
        path = Path(file)
        try:
            with path.open("rb") as upload:
                result = import_sheet(target, upload, path.name, entered_by=f"import {path.name}")
        except (OSError, SpreadsheetError) as error:
            raise CommandError(f"Nothing imported: {error}") from None
        if result.errors:
            for row, problem in result.errors:
                self.stderr.write(f"row {row}, {problem}")
            count = len(result.errors)
            raise CommandError(
                ngettext("Nothing imported: %(n)s problem.", "Nothing imported: %(n)s problems.", count) % {"n": count}
            )
        self.stdout.write(
            ngettext(
                "Imported %(n)s deal into table %(table)s of series %(series)s.",
                "Imported %(n)s deals into table %(table)s of series %(series)s.",
                result.games,
            )
            % {"n": result.games, "table": table, "series": series}
        )
