"""``manage.py backup`` (``skat-office backup``): a consistent copy of the database now.

Into the data directory's ``backups/`` and, when ``SKAT_OFFICE_BACKUP_DIR`` names a
folder (a USB stick), there too (core.backups), each with the secret key beside it. A
folder that cannot be written is one line; the command fails (exit 1) when no copy could
be made, or when the named USB folder got none: a script or a director checking the
stick must not be told all is well.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from core.backups import SECOND_DIR_ENV, make_backup, second_dir


class Command(BaseCommand):
    help = "Back up the database (SQLite online backup or pg_dump) into DATA_DIR/backups and SKAT_OFFICE_BACKUP_DIR."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--keep",
            type=int,
            default=settings.BACKUP_KEEP,
            help="the most backups each folder keeps (core.retention chooses which: the whole evening by time)",
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
        second = second_dir()
        if second is not None and not any(path.parent == second for path in result.made):
            raise CommandError(f"No backup was written to {second} ({SECOND_DIR_ENV}).")
