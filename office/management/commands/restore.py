"""``manage.py restore FILE`` (``skat-office restore FILE``): bring a backup back.

Asks first (``--no-input`` does not); refuses a file that is not a backup of the office,
naming why; saves the database in use as a safety copy before anything is changed
(core.restore).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from core.backups import BackupError, database
from core.restore import check, restore


class Command(BaseCommand):
    help = "Restore a backup made by `backup` (the database in use is saved first). Stop the office before."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path, help="the backup file (.sqlite3 or .pgdump)")
        parser.add_argument("--no-input", action="store_true", help="restore without asking")

    def handle(self, *args: Any, **options: Any) -> None:
        path: Path = options["file"]
        try:
            check(path)
        except BackupError as error:
            raise CommandError(f"Not restored: {error}") from None
        if not options["no_input"] and not self.confirmed(path):
            raise CommandError("Not restored: the answer was not 'yes'.")
        try:
            safety = restore(path)
        except BackupError as error:
            raise CommandError(f"Not restored: {error}") from None
        if safety:
            self.stdout.write(f"The database that was in use is saved in {safety}.")
        self.stdout.write(f"Restored {path}.")

    def confirmed(self, path: Path) -> bool:
        db = database()
        where = db["NAME"] if db["ENGINE"].endswith("sqlite3") else f"PostgreSQL database {db['NAME']}"
        self.stdout.write(
            f"This replaces everything in {where} by the backup {path}.\n"
            "Stop the office first. The database in use is saved as a backup before."
        )
        try:
            answer = input("Type 'yes' to restore: ")
        except EOFError:
            return False
        return answer.strip().lower() in {"yes", "ja", "y", "j"}
