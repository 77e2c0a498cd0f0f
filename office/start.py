"""What ``serve`` makes sure of before it migrates and serves, each refusal in one line.

- One office per data folder: the first takes the folder's lock (core.datalock) and holds
  it until it stops; a second start on the same folder is refused, naming who holds it.
- A damaged SQLite file (its header overwritten, cut short) is named with what is wrong,
  and with the restore command of the newest backup, instead of a traceback from migrate.
- A database that may lose a confirmed deal in a power cut (core.durability) is refused,
  saying how to fix it.
- A secret key file found empty or damaged was filled with a new key (config.hall): said
  in one line, since the printed PINs and player links changed with it.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from django.conf import settings
from django.core.management.base import CommandError
from django.db import DatabaseError, OperationalError, connection
from django.db.backends.base.base import BaseDatabaseWrapper
from django.utils.translation import gettext as _

from config import datadir, hall
from core import backups, durability, rescue
from core.datalock import Busy, DataLock


def hold(folder: Path) -> DataLock:
    """The data folder's lock, taken for ``serve``; CommandError naming its holder when another office has it."""
    try:
        return DataLock(Path(folder), purpose="serve").acquire()
    except Busy as busy:
        raise CommandError(
            _(
                "Another office uses the data folder %(folder)s (%(holder)s): stop it first, "
                "or start this one with another --data-dir."
            )
            % {"folder": busy.folder, "holder": busy.holder or _("who, it does not say")}
        ) from None


def newest_backup() -> Path | None:
    """The newest backup of the data folder's and the second folder's (a restore's safety copy last)."""
    places = [backups.primary_dir(), backups.second_dir()]
    found = [path for place in places if place is not None for path in backups.listed(place)]
    found.sort(key=lambda path: (backups.BEFORE_RESTORE not in path.name, path.name))
    return found[-1] if found else None


def restore_command(backup: Path) -> str:
    """``skat-office restore FILE``, with the data folder when it was chosen at this start."""
    data = f' --data-dir "{settings.DATA_DIR}"' if os.environ.get(datadir.ENV) else ""
    return f'skat-office restore "{backup}"{data}'


def damaged_message(what: str) -> str:
    """The one line for a damaged SQLite file: what is wrong, the file, how to bring the evening back."""
    name = settings.DATABASES["default"]["NAME"]
    backup = newest_backup()
    if backup is None:
        advice = _(
            "No backup was found in %(folder)s: restore one you have with skat-office restore FILE, "
            "or move the damaged file away to start with an empty database."
        ) % {"folder": backups.primary_dir()}
    else:
        advice = _("Restore the newest backup: %(command)s") % {"command": restore_command(backup)}
    return _("The database %(file)s is damaged (%(what)s). %(advice)s") % {
        "file": name,
        "what": " ".join(what.split())[:200],
        "advice": advice,
    }


def damage(database: dict | None = None) -> str:
    """What is wrong with the SQLite file in use (core.rescue.damage: its header, then
    ``PRAGMA quick_check``), or "" when it is whole, not there yet, or not SQLite."""
    database = database or connection.settings_dict
    name = str(database.get("NAME") or "")
    if not database.get("ENGINE", "").endswith("sqlite3") or not name or name == ":memory:":
        return ""
    return rescue.damage(Path(name))


def unreachable_message(error: Exception, database: dict) -> str:
    """One line for a database server that refused or did not answer: where, why, what to do."""
    where = f"{database.get('HOST') or 'localhost'}:{database.get('PORT') or 5432}"
    first = " ".join(str(error).split("\n")[0].split())[:200]
    if "FATAL:" in first:  # the server answered, and refused: no such database or user, a password wrong
        return _(
            "The database server at %(where)s refused the connection to database %(name)s: %(error)s. "
            "Create the database or its user there, or set DATABASE_URL to the server that holds the office's data."
        ) % {"where": where, "name": database.get("NAME") or "", "error": first}
    return _(
        "The database server at %(where)s (database %(name)s) does not answer: %(error)s. "
        "Start it, or set DATABASE_URL to the server that holds the office's data."
    ) % {"where": where, "name": database.get("NAME") or "", "error": first}


def check_database(database: BaseDatabaseWrapper = connection) -> None:
    """Refuse a damaged SQLite file, a database server that does not answer, or a database that
    may lose commits, each in one line (CommandError)."""
    if what := damage(database.settings_dict):
        raise CommandError(damaged_message(what))
    try:
        database.ensure_connection()
    except OperationalError as error:
        if database.vendor == "sqlite":
            raise
        raise CommandError(unreachable_message(error, database.settings_dict)) from None
    if problem := durability.problem(database):
        raise CommandError(problem)


@contextmanager
def damage_told() -> Iterator[None]:
    """A database error in the block (migrate) that is the file's damage is told as :func:`check_database` tells it."""
    try:
        yield
    except DatabaseError:
        if what := damage():
            raise CommandError(damaged_message(what)) from None
        raise


def secret_key() -> list[str]:
    """The key from its file (made private, generated when missing) into the settings, and
    the lines to say about it: a key file found empty or damaged now holds a new key."""
    key = hall.ensure_secret_key(Path(settings.SECRET_KEY_FILE))
    if key != settings.SECRET_KEY:
        # The settings held this process's own key (the file was damaged: replaced only now,
        # under the lock), or two first starts at once both generated one: the file's is
        # the one every serving process reads.
        settings.SECRET_KEY = key
    lines = [hall.replaced_key_message(path) for path in hall.replaced]
    hall.replaced.clear()  # said once
    return lines
