"""``manage.py restore [FILE]`` (``skat-office restore``): bring a backup back.

Refuses while an office serves the data folder, and holds it meanwhile; refuses a file
that is not a backup of the office, naming why; shows what the database in use and the
backup hold (tournaments, deals, the latest deal) and asks (``--no-input`` does not);
saves the database in use as a safety copy first, or moves it aside when it is damaged;
puts the backup's secret key back (core.restore, core.rescue). Without FILE it lists the
backups of the data folder and the USB folder with what each holds, to pick one.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from core import backup_contents, rescue
from core.backups import BackupError, database, is_sqlite, key_of, listed, primary_dir, second_dir
from core.params import number_param
from core.restore import check, locked, restore
from core.retention import SAFETY_KEEP

#: Backups offered per folder when no FILE is named: the newest.
OFFERED = 10


class Command(BaseCommand):
    help = "Restore a backup made by `backup` (the database in use is saved first). Stop the office before."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "file", type=Path, nargs="?", help="the backup file (.sqlite3 or .pgdump); none: pick from a list"
        )
        parser.add_argument("--no-input", action="store_true", help="restore without asking")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            lock = locked()
        except BackupError as error:
            raise CommandError(f"Not restored: {error}") from None
        try:
            self.restore(options["file"], ask=not options["no_input"])
        finally:
            lock.release()

    def restore(self, path: Path | None, *, ask: bool) -> None:
        if path is None:
            if not ask:
                raise CommandError("Not restored: name the backup file (--no-input picks none).")
            path = self.pick()
        try:
            check(path)
        except BackupError as error:
            raise CommandError(f"Not restored: {error}") from None
        if ask and not self.confirmed(path):
            raise CommandError("Not restored: the answer was not 'yes'.")
        try:
            done = restore(path)
        except BackupError as error:
            raise CommandError(f"Not restored: {error}") from None
        if done.damaged:
            self.stdout.write(f"The damaged database was moved aside: {', '.join(str(p) for p in done.damaged)}.")
        if done.safety:
            self.stdout.write(
                f"The database that was in use is saved in {done.safety} "
                f"(the newest {SAFETY_KEEP} such copies are kept)."
            )
        self.stdout.write(done.key)
        self.stdout.write(f"Restored {path}.")

    def where(self) -> str:
        db = database()
        return str(db["NAME"]) if is_sqlite() else f"PostgreSQL database {db['NAME']}"

    def in_use(self) -> str:
        if is_sqlite():
            why = rescue.damage(Path(str(database()["NAME"])))
            if why:
                return f"damaged ({why}): it is moved aside, not overwritten"
        return backup_contents.of_database_in_use().line()

    def holds(self, backup: Path) -> str:
        key = "with its secret key" if key_of(backup).is_file() else "without a secret key: PINs and links change"
        return f"{backup_contents.of_backup(backup).line()}; {key}"

    def confirmed(self, path: Path) -> bool:
        self.stdout.write(
            f"In use, {self.where()}: {self.in_use()}.\n"
            f"The backup {path}: {self.holds(path)}.\n"
            f"This replaces everything in {self.where()} by the backup; "
            "the database in use is saved as a backup first (or moved aside when damaged)."
        )
        try:
            answer = input("Type 'yes' to restore: ")
        except EOFError:
            return False
        return answer.strip().lower() in {"yes", "ja", "y", "j"}

    def pick(self) -> Path:
        folders = [primary_dir(), *([second_dir()] if second_dir() else [])]
        offered = [backup for folder in folders for backup in listed(folder)[-OFFERED:][::-1]]
        if not offered:
            raise CommandError(f"Not restored: no backup in {' or '.join(str(f) for f in folders)}; name the file.")
        self.stdout.write(f"In use, {self.where()}: {self.in_use()}.\nThe backups, newest first:")
        for number, backup in enumerate(offered, start=1):
            self.stdout.write(f"{number:3}  {backup}\n     {self.holds(backup)}")
        try:
            answer = input("The number of the backup to restore (or a file): ").strip()
        except EOFError:
            answer = ""
        # number_param: "²" passes isdigit() but int() refuses it (a traceback), as it does 5,000 digits.
        number = number_param(answer)
        if number is not None and 1 <= number <= len(offered):
            return offered[number - 1]
        if answer and not answer.isdigit():
            return Path(answer)
        raise CommandError(f"Not restored: {answer or 'nothing'} is not one of the numbers 1 to {len(offered)}.")
