"""Upgrades that upgrade, and an older office that will not serve a newer database.

Installing a newer office over an older one migrates its database at the next start
(``serve`` runs ``migrate``). The other way round, an older office would serve a
database whose tables a newer one has changed, and its pages would fail or write
wrong rows: a database with an applied migration this code does not know was migrated
by a newer office, and ``serve`` refuses it with one line. That line names the version
that last migrated it, which ``serve`` records in the data directory after each
migration (``office-version``).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from django.core.management import call_command
from django.db import connections
from django.db.migrations.loader import MigrationLoader
from django.db.migrations.recorder import MigrationRecorder

from core.files import write_atomic
from skat import __version__

#: The file in the data directory naming the version that last migrated the database.
VERSION_FILE = "office-version"


def unknown_migrations(alias: str = "default") -> list[str]:
    """The applied migrations (``app.name``) this code has not: a newer office applied them.

    A migration a squashed one of this code replaces is known."""
    connection = connections[alias]
    recorder = MigrationRecorder(connection)
    if not recorder.has_table():
        return []
    loader = MigrationLoader(None, ignore_no_migrations=True)
    known = set(loader.disk_migrations)
    for migration in loader.disk_migrations.values():
        known.update(migration.replaces)
    return sorted(f"{app}.{name}" for app, name in recorder.applied_migrations() if (app, name) not in known)


def recorded_version(data_dir: Path) -> str:
    """The version that last migrated the database in ``data_dir``, or "" when none is recorded."""
    try:
        return (data_dir / VERSION_FILE).read_text(encoding="utf-8").strip()[:60]
    except (OSError, UnicodeDecodeError):
        return ""


def record_version(data_dir: Path, version: str = __version__) -> None:
    """After a migration: this office's version is the one that last migrated the database."""
    write_atomic(data_dir / VERSION_FILE, version + "\n")


def migrate(data_dir: Path, alias: str = "default", run: Callable[[], None] | None = None) -> None:
    """The database brought to this office's migrations (``run``, else Django's ``migrate``);
    the version recorded when it applied any (or none was recorded yet), so an older office
    can name the version to install."""
    recorder = MigrationRecorder(connections[alias])
    before = set(recorder.applied_migrations()) if recorder.has_table() else set()
    if run is None:
        call_command("migrate", database=alias, interactive=False, verbosity=0)
    else:
        run()
    if set(recorder.applied_migrations()) != before or not recorded_version(data_dir):
        record_version(data_dir)


def refusal(data_dir: Path, alias: str = "default") -> str | None:
    """The one line that refuses a database a newer office migrated, or None."""
    unknown = unknown_migrations(alias)
    if not unknown:
        return None
    names = ", ".join(unknown[:3]) + (f" and {len(unknown) - 3} more" if len(unknown) > 3 else "")
    newer = recorded_version(data_dir)
    install = f"install version {newer} or newer" if newer and newer != __version__ else "install a newer version"
    return (
        f"This database was used by a newer version of the office (migration{'s' if len(unknown) > 1 else ''} "
        f"{names} unknown to version {__version__}): {install} of the office, or start with another "
        "--data-dir."
    )
