"""``manage.py backup`` (``skat-office backup``): a consistent copy of the database now.

Into the data directory's ``backups/`` and, when ``SKAT_OFFICE_BACKUP_DIR`` names a
folder (a USB stick), there too (core.backups). A folder that cannot be written is one
line; the command fails only when no copy at all could be made.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from core.backups import make_backup


class Command(BaseCommand):
    help = "Back up the database (SQLite online backup or pg_dump) into DATA_DIR/backups and SKAT_OFFICE_BACKUP_DIR."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--keep", type=int, default=settings.BACKUP_KEEP, help="how many backups each folder keeps (the newest)"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["keep"] < 1:
            raise CommandError(f"--keep must be at least 1, not {options['keep']}.")
        result = make_backup(keep=options["keep"], log=False)  # its lines are said here, once
        for problem in result.problems:
            self.stderr.write(problem)
        if not result.made:
            raise CommandError("No backup was made.")
        for path in result.made:
            self.stdout.write(f"Backup written: {path}")
