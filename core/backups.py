"""Backups that keep the evening: a consistent copy of the database, made while the hall
plays, into the data directory's ``backups/`` and a second folder (a USB stick).

- SQLite: the online backup API (``sqlite3.Connection.backup``) copies one consistent
  snapshot, the write-ahead log included; copying the file by hand can miss the last
  deals. The copy is marked as ours (SQLite's ``application_id``).
- PostgreSQL: ``pg_dump`` in its custom format (``pg_restore`` reads it back).

``manage.py backup`` makes one, ``manage.py restore FILE`` brings one back (after a
safety copy of the database in use, ``core.restore``); :func:`start_background` makes
one every few minutes and one soon after each finished series: the office connects
``dashboard.signals.series_finished`` to :func:`after_series` (``office.apps``), so this
module, below every app, imports none of them.
A folder that cannot be written, a full disk or a USB stick pulled out is one line in
the log and on the dashboard (``core.backup_status``); the evening goes on.

Each backup carries the secret key the PINs and player links are derived from
(``<backup>.secret-key``, readable by its owner only), so a restore on another laptop
keeps what was printed. Which backups stay is ``core.retention``'s rule: the whole
evening, by time, under the cap ``BACKUP_KEEP``.
"""

from __future__ import annotations

import logging
import os
import shutil
import sqlite3
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from django.conf import settings
from django.utils import timezone

from core import backup_status, diskspace, retention
from core.files import write_atomic
from core.pgtools import BackupError, find_postgres_tool, postgres_args, run  # BackupError: theirs, raised here too

logger = logging.getLogger("core.backups")

#: SQLite's application_id of a backup the office made: "SKAT" in ASCII.
MARK = 0x534B4154
PREFIX = "skat-office-"
SQLITE_SUFFIX = ".sqlite3"
POSTGRES_SUFFIX = ".pgdump"
#: The second folder (a USB stick, a synced folder): it must exist, it is never created,
#: so a stick that was pulled out does not turn into a folder on the laptop's own disk.
SECOND_DIR_ENV = "SKAT_OFFICE_BACKUP_DIR"
#: The safety copy ``restore`` makes first: kept apart from the rotation (the newest few stay).
BEFORE_RESTORE = "before-restore"
#: Beside each backup: the secret key of the office it was made by.
KEY_SUFFIX = ".secret-key"
DISK_FULL_WORDS = "the disk is full"


@dataclass
class Result:
    made: list[Path] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def database() -> dict:
    return settings.DATABASES["default"]


def is_sqlite() -> bool:
    return database()["ENGINE"].endswith("sqlite3")


def suffix() -> str:
    return SQLITE_SUFFIX if is_sqlite() else POSTGRES_SUFFIX


def primary_dir() -> Path:
    return Path(settings.DATA_DIR) / "backups"


def second_dir() -> Path | None:
    value = os.environ.get(SECOND_DIR_ENV, "").strip()
    return Path(value) if value else None


def listed(directory: Path) -> list[Path]:
    """The office's backups in ``directory``, oldest first (their names sort by time)."""
    try:
        found = [
            p
            for p in directory.iterdir()
            if p.name.startswith(PREFIX) and p.suffix in (SQLITE_SUFFIX, POSTGRES_SUFFIX)
        ]
    except OSError:
        return []
    return sorted(found, key=lambda p: p.name)


def _name(now: datetime, reason: str) -> str:
    stamp = timezone.localtime(now).strftime("%Y-%m-%d_%H-%M-%S-%f")[:-3]
    return f"{PREFIX}{stamp}{'-' + reason if reason else ''}{suffix()}"


# --- Making a copy --------------------------------------------------------------------


def _sqlite_copy(target: Path) -> None:
    source_path = Path(str(database()["NAME"]))
    if not source_path.is_file():
        raise BackupError(f"There is no database at {source_path} yet: nothing to back up.")
    source = sqlite3.connect(source_path, timeout=20)
    try:
        copy = sqlite3.connect(target)
        try:
            source.backup(copy)  # one consistent snapshot, the write-ahead log included
            copy.execute(f"PRAGMA application_id={MARK}")
            copy.execute("PRAGMA journal_mode=DELETE")  # one self-contained file
            copy.commit()
        finally:
            copy.close()
    finally:
        source.close()


def _postgres_copy(target: Path) -> None:
    args, env = postgres_args()
    argv = [find_postgres_tool("pg_dump"), "--format=custom", "--no-owner", "--no-privileges", "--file", str(target)]
    run(argv + args, env, "pg_dump")


def _write(directory: Path, name: str) -> Path:
    """The database copied into ``directory/name`` via a temporary file (never half a backup)."""
    target = directory / name
    partial = directory / f".{name}.partial"
    try:
        (_sqlite_copy if is_sqlite() else _postgres_copy)(partial)
        os.replace(partial, target)
    finally:
        partial.unlink(missing_ok=True)
    return target


def _copy_to(directory: Path, source: Path) -> Path:
    target = directory / source.name
    partial = directory / f".{source.name}.partial"
    try:
        shutil.copyfile(source, partial)
        os.replace(partial, target)
    finally:
        partial.unlink(missing_ok=True)
    return target


def key_of(backup: Path) -> Path:
    """Where the secret key that came with ``backup`` is kept: beside it."""
    return backup.with_name(backup.name + KEY_SUFFIX)


def key_to_carry() -> str:
    """The secret key every backup carries: the key file's, which the office reads at
    each start. None (empty) when SECRET_KEY comes from the environment: whoever set it
    keeps it, and it is not copied onto a stick."""
    if os.environ.get("SECRET_KEY", "").strip():
        return ""
    try:
        return Path(settings.SECRET_KEY_FILE).read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError, AttributeError, TypeError):
        return ""


def prune(directory: Path, keep: int, now: datetime | None = None) -> None:
    """The backups ``core.retention`` keeps stay (at most ``keep``); the others go, with their keys."""
    moment = timezone.localtime(now or timezone.now()).replace(tzinfo=None)
    for old in retention.to_delete(listed(directory), moment, keep, PREFIX, BEFORE_RESTORE):
        try:
            old.unlink()
            key_of(old).unlink(missing_ok=True)
        except OSError as error:
            logger.warning("Backup: could not delete the old backup %s: %s", old, error.strerror or error)


def _why(error: OSError | sqlite3.Error) -> str:
    if diskspace.is_full(error):
        return DISK_FULL_WORDS
    if isinstance(error, OSError):
        return error.strerror or str(error)
    return f"the database cannot be copied ({error})"


def _with_key(backup: Path, key: str) -> Path:
    """``backup`` with the secret key beside it; without room for the key, no backup."""
    if key:
        try:
            write_atomic(key_of(backup), key + "\n", private=True)
        except OSError:
            backup.unlink(missing_ok=True)
            raise
    return backup


def make_backup(reason: str = "", keep: int | None = None, now: datetime | None = None, *, log: bool = True) -> Result:
    """One backup into the data directory's ``backups/`` and the second folder, if one is
    named; each problem is one line (recorded for the dashboard, and logged unless the
    caller says them itself: ``log=False``), never raised."""
    keep = settings.BACKUP_KEEP if keep is None else keep
    now = now or timezone.now()
    name = _name(now, reason)
    result = Result()
    first = primary_dir()
    key = key_to_carry()
    try:
        first.mkdir(parents=True, exist_ok=True)
        result.made.append(_with_key(_write(first, name), key))
        prune(first, keep, now)
    except BackupError as error:
        result.problems.append(str(error))
    except (OSError, sqlite3.Error) as error:
        if diskspace.is_full(error):
            todo = "Free space on that disk (delete old files)."
        elif isinstance(error, sqlite3.Error):
            todo = "The database in use may be damaged: restore the last good backup (skat-office restore)."
        else:
            todo = "Make the data directory writable or start the office with another one (--data-dir)."
        result.problems.append(f"Backup not written to {first}: {_why(error)}. {todo}")
    second = second_dir()
    if second is not None and (result.made or not is_sqlite() or Path(str(database()["NAME"])).is_file()):
        try:
            if not second.is_dir():
                raise FileNotFoundError(2, "the folder is not there")
            copy = _copy_to(second, result.made[0]) if result.made else _write(second, name)
            result.made.append(_with_key(copy, key))
            prune(second, keep, now)
        except BackupError as error:
            result.problems.append(str(error))
        except (OSError, sqlite3.Error) as error:
            kept = f"The backup in {first} was made." if result.made else "No backup was made."
            todo = "Free space on the stick." if diskspace.is_full(error) else "Is the USB stick plugged in?"
            result.problems.append(
                f"Backup folder {second} ({SECOND_DIR_ENV}) cannot be written: {_why(error)}. {todo} {kept}"
            )
    unrecorded = _record(result, now)
    if unrecorded:
        result.problems.append(unrecorded)
    for problem in result.problems if log else ():
        logger.warning("Backup: %s", problem)
    return result


def _record(result: Result, now: datetime) -> str:
    """The record for the dashboard written; or why it could not be."""
    earlier = backup_status.read(settings.DATA_DIR) or backup_status.BackupStatus()
    status = backup_status.BackupStatus(
        made_at=now if result.made else earlier.made_at,
        places=[str(p) for p in result.made] if result.made else earlier.places,
        attempted_at=now,
        problems=result.problems,
    )
    try:
        backup_status.write(settings.DATA_DIR, status)
    except OSError as error:
        if diskspace.is_full(error) and _overwrite_in_place(backup_status.path(settings.DATA_DIR), status.to_json()):
            return ""
        return f"The record for the dashboard could not be written in {settings.DATA_DIR}: {_why(error)}."
    return ""


def _overwrite_in_place(path: Path, text: str) -> bool:
    """The record rewritten in the blocks it already has, when a full disk leaves no room for
    a new file: the one moment the dashboard must say "the disk is full". Not atomic (a reader
    may see no record for an instant, which it shows as none); False when it fails too."""
    payload = text.encode("utf-8")
    try:
        descriptor = os.open(path, os.O_WRONLY)
    except OSError:
        return False
    try:
        os.write(descriptor, payload)
        os.ftruncate(descriptor, len(payload))
        os.fsync(descriptor)
    except OSError:
        return False
    finally:
        os.close(descriptor)
    return True


# --- In the background while serving ---------------------------------------------------


_RUNNING: set = set()  # BackgroundBackups, or a _Forward in a process keeping none
_RUNNING_LOCK = threading.Lock()


def after_series(sender: object = None, **kwargs: object) -> None:
    """A series was finished: every running background maker backs up now (a signal receiver)."""
    with _RUNNING_LOCK:
        running = list(_RUNNING)
    for maker in running:
        maker.now()


class _Forward:
    """Stands for the first serving process's maker in a process that keeps no backups."""

    def __init__(self, wake: Callable[[], object]) -> None:
        self.now = wake


def forward_series(wake: Callable[[], object]) -> None:
    """In a serving process without backups of its own (office.workers' spawned children):
    a series finished here calls ``wake``, which tells the first process's maker; without
    it that series' backup waited up to BACKUP_EVERY_MINUTES whenever a child had
    answered the last entry."""
    with _RUNNING_LOCK:
        _RUNNING.add(_Forward(wake))


class BackgroundBackups:
    """A thread that makes a backup every ``every_minutes`` and one soon after each
    finished series; :meth:`stop` ends it (the server's shutdown)."""

    def __init__(self, every_minutes: float, keep: int) -> None:
        self.every = every_minutes * 60
        self.keep = keep
        self.made = 0  # backups attempted so far (tests wait on it)
        self._wake = threading.Event()
        self._stopping = threading.Event()
        self._done = threading.Condition()
        self._thread = threading.Thread(target=self._run, name="skat-office-backups", daemon=True)

    def start(self) -> BackgroundBackups:
        with _RUNNING_LOCK:
            _RUNNING.add(self)
        self._thread.start()
        return self

    def now(self) -> None:
        """One backup as soon as possible (a series was finished)."""
        self._wake.set()

    def _run(self) -> None:
        while not self._stopping.is_set():
            woken = self._wake.wait(timeout=self.every)
            if self._stopping.is_set():
                break
            self._wake.clear()
            try:
                make_backup("series" if woken else "", keep=self.keep)
            except Exception:  # never let one bad backup end the backups of the evening
                logger.exception("Backup: unexpected failure; the next one is tried as planned")
            with self._done:
                self.made += 1
                self._done.notify_all()

    def wait_for(self, count: int, timeout: float) -> bool:
        """True once ``count`` backups were attempted (within ``timeout`` seconds)."""
        with self._done:
            return self._done.wait_for(lambda: self.made >= count, timeout=timeout)

    def stop(self, timeout: float | None = 30) -> None:
        with _RUNNING_LOCK:
            _RUNNING.discard(self)
        self._stopping.set()
        self._wake.set()
        if self._thread.is_alive():
            self._thread.join(timeout)


def start_background(every_minutes: float | None = None, keep: int | None = None) -> BackgroundBackups:
    """Backups while the office serves: every ``every_minutes`` (``BACKUP_EVERY_MINUTES``,
    5) and after each finished series, kept by ``core.retention`` (at most ``keep``,
    ``BACKUP_KEEP``).
    Start it in the serving process only once (not in every worker)."""
    every = settings.BACKUP_EVERY_MINUTES if every_minutes is None else every_minutes
    return BackgroundBackups(every, settings.BACKUP_KEEP if keep is None else keep).start()
