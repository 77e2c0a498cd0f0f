"""Bringing a backup back (``manage.py restore FILE``): only a backup the office made,
only after a safety copy of the database in use, then migrated to this version.

A damaged database in use is moved aside instead of saved (``core.rescue``); the
backup's secret key comes back with it; the data folder is held while it runs, so an
office serving it refuses the restore and none starts meanwhile.

A file is refused, naming why, when it is not there, is neither an SQLite database nor a
PostgreSQL dump, is a database the office did not back up (no mark, no office tables),
belongs to the other kind of database than the one configured, or was made by a newer
office (a migration unknown here).
"""

from __future__ import annotations

import sqlite3
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

from django.conf import settings
from django.core.cache import caches
from django.core.management import call_command
from django.db import connections
from django.db.migrations.loader import MigrationLoader

from core import rescue
from core.backups import (
    BEFORE_RESTORE,
    MARK,
    BackupError,
    database,
    find_postgres_tool,
    is_sqlite,
    make_backup,
)
from core.datalock import Busy, DataLock
from core.pgtools import postgres_args, run

SQLITE_HEADER = b"SQLite format 3\x00"
POSTGRES_HEADER = b"PGDMP"
#: Tables every office database has: a file without them is not one of ours.
OFFICE_TABLES = ("django_migrations", "tournaments_tournament", "scoring_game")


@dataclass(frozen=True, slots=True)
class Checked:
    path: Path
    kind: str  # "sqlite" or "postgres"


def read_only_uri(path: Path) -> str:
    """``path`` opened read-only, whatever its name holds ("E:\\Sicherung #2", spaces, %)."""
    return path.resolve().as_uri() + "?mode=ro"


def _unknown_migrations(applied: set[tuple[str, str]]) -> list[str]:
    known = set(MigrationLoader(None, ignore_no_migrations=True).disk_migrations)
    return sorted(f"{app}.{name}" for app, name in applied if (app, name) not in known)


def _check_sqlite(path: Path) -> None:
    try:
        handle = sqlite3.connect(read_only_uri(path), uri=True)
    except sqlite3.Error as error:
        raise BackupError(f"{path} cannot be opened as a database: {error}.") from error
    try:
        if handle.execute("PRAGMA application_id").fetchone()[0] != MARK:
            raise BackupError(
                f"{path} is an SQLite database but not a backup the office made (skat-office backup marks its copies)."
            )
        tables = {row[0] for row in handle.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        missing = [t for t in OFFICE_TABLES if t not in tables]
        if missing:
            raise BackupError(f"{path} has no {', '.join(missing)}: it is not a database of the office.")
        applied = set(handle.execute("SELECT app, name FROM django_migrations"))
        # A page damaged on the stick passes the checks above and the copy: look at every page.
        damage = [row[0] for row in handle.execute("PRAGMA quick_check(1)")]
        if damage != ["ok"]:
            raise BackupError(f"{path} is damaged and cannot be restored: {damage[0]}.")
    except sqlite3.DatabaseError as error:
        raise BackupError(f"{path} is damaged and cannot be read: {error}.") from error
    finally:
        handle.close()
    unknown = _unknown_migrations(applied)
    if unknown:
        raise BackupError(
            f"{path} was made by a newer version of the office ({unknown[0]} is unknown here): "
            "install that version to restore it."
        )


def _check_postgres(path: Path) -> None:
    _args, env = postgres_args()
    tool = find_postgres_tool("pg_restore")
    listing = subprocess.run([tool, "--list", str(path)], capture_output=True, text=True, env=env, check=False)
    if listing.returncode != 0:
        raise BackupError(f"{path} cannot be read by pg_restore: {(listing.stderr.strip() or 'no message')}.")
    missing = [t for t in OFFICE_TABLES if f" TABLE public {t} " not in listing.stdout]
    if missing:
        raise BackupError(f"{path} has no {', '.join(missing)}: it is not a backup of the office.")
    unknown = _unknown_migrations(_dumped_migrations(tool, path, env))
    if unknown:
        raise BackupError(
            f"{path} was made by a newer version of the office ({unknown[0]} is unknown here): "
            "install that version to restore it."
        )


def _dumped_migrations(tool: str, path: Path, env: dict[str, str]) -> set[tuple[str, str]]:
    """The (app, name) rows of the dump's django_migrations, read from its COPY block."""
    argv = [tool, "--data-only", "--table=django_migrations", "--file=-", str(path)]
    dumped = subprocess.run(argv, capture_output=True, text=True, env=env, check=False)
    if dumped.returncode != 0:
        raise BackupError(f"{path} cannot be read by pg_restore: {(dumped.stderr.strip() or 'no message')}.")
    applied, copying = set(), False
    for line in dumped.stdout.splitlines():
        if line.startswith("COPY ") and "django_migrations" in line:
            columns = [c.strip() for c in line[line.index("(") + 1 : line.index(")")].split(",")]
            app, name, copying = columns.index("app"), columns.index("name"), True
        elif copying and line == "\\.":
            copying = False
        elif copying:
            row = line.split("\t")
            applied.add((row[app], row[name]))
    return applied


def check(path: Path) -> Checked:
    """The backup at ``path`` as one of ours for the configured database, or BackupError why not."""
    try:
        with path.open("rb") as handle:
            head = handle.read(16)
    except FileNotFoundError as error:
        raise BackupError(f"{path} does not exist.") from error
    except OSError as error:
        raise BackupError(f"{path} cannot be read: {error.strerror or error}.") from error
    if head.startswith(SQLITE_HEADER):
        if not is_sqlite():
            raise BackupError(f"{path} is an SQLite backup, but this office uses PostgreSQL (DATABASE_URL).")
        _check_sqlite(path)
        return Checked(path, "sqlite")
    if head.startswith(POSTGRES_HEADER):
        if is_sqlite():
            raise BackupError(f"{path} is a PostgreSQL backup, but this office uses SQLite (DATABASE_URL).")
        _check_postgres(path)
        return Checked(path, "postgres")
    raise BackupError(f"{path} is neither an SQLite database nor a PostgreSQL dump: not a backup of the office.")


def _has_data() -> bool:
    if is_sqlite():
        name = Path(str(database()["NAME"]))
        return name.is_file() and name.stat().st_size > 0
    with connections["default"].cursor() as cursor:
        return "django_migrations" in connections["default"].introspection.table_names(cursor)


@dataclass(frozen=True, slots=True)
class Restored:
    #: The safety copy of the database that was in use (None: there was none, or it was damaged).
    safety: Path | None = None
    #: The damaged database in use and its logs, moved aside.
    damaged: list[Path] = field(default_factory=list)
    #: What became of the secret key, in one line.
    key: str = ""


def restore(path: Path) -> Restored:
    """Bring the backup at ``path`` back, with its secret key. The database in use is saved
    first as a safety copy, or, when it is damaged, moved aside. Nothing is changed if the
    check or the safety copy fails. The caller holds the data folder (``locked``)."""
    checked = check(path)
    safety, damaged = None, []
    target = Path(str(database()["NAME"])) if checked.kind == "sqlite" else None
    why = rescue.damage(target) if target else ""
    connections.close_all()
    if why:
        try:
            damaged = rescue.move_aside(target)
        except OSError as error:
            raise BackupError(
                f"The damaged database {target} ({why}) could not be moved aside: "
                f"{error.strerror or error}; nothing was restored."
            ) from error
    elif _has_data():
        saved = make_backup(BEFORE_RESTORE)
        if not saved.made:
            raise BackupError(
                f"The database in use could not be saved first ({saved.problems[0]}); nothing was restored."
            )
        safety = saved.made[0]
    connections.close_all()
    if target is not None:
        target.parent.mkdir(parents=True, exist_ok=True)
        source = sqlite3.connect(read_only_uri(checked.path), uri=True)
        copy = sqlite3.connect(target, timeout=20)
        try:
            source.backup(copy)
            copy.execute("PRAGMA application_id=0")  # the live database is not a backup
            copy.execute("PRAGMA journal_mode=WAL")
            copy.commit()
        finally:
            copy.close()
            source.close()
    else:
        args, env = postgres_args()
        tool = find_postgres_tool("pg_restore")
        argv = [tool, "--clean", "--if-exists", "--no-owner", "--no-privileges", "--single-transaction", *args]
        run([*argv, str(checked.path)], env, "pg_restore")
    # An older backup is brought up to this version; computed pages of the evening before go.
    call_command("migrate", interactive=False, verbosity=0)
    caches["default"].clear()
    return Restored(safety=safety, damaged=damaged, key=rescue.put_key_back(checked.path))


def locked() -> DataLock:
    """The data folder held for the restore (``serve`` cannot start meanwhile); raises
    BackupError in one line when an office serves it."""
    lock = DataLock(Path(settings.DATA_DIR), "restore")
    try:
        return lock.acquire()
    except Busy as busy:
        raise BackupError(
            f"An office is using {busy.folder} ({busy.holder or 'another process'}): stop it first, then restore."
        ) from None
    except OSError as error:
        why = error.strerror or error
        raise BackupError(f"The data folder {settings.DATA_DIR} cannot be locked: {why}.") from error
