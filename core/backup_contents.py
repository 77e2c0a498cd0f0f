"""What a database or a backup holds, in one line: tournaments, deals, the latest deal's time.

``restore`` shows it for the database in use and for each backup before it asks, so the
director sees which file has the evening, not only names. A backup is a file from a stick
someone handed over: it is opened read-only, its schema is not trusted, every query is cut
off after a bounded amount of work, and any error becomes "cannot be read" (never a
traceback). A PostgreSQL dump is not opened: its size and time say what can be said.
"""

from __future__ import annotations

import sqlite3
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from django.db import connections
from django.utils import timezone

SQLITE_HEADER = b"SQLite format 3\x00"
#: Work a summary may take before it is cut off (seconds): a hostile file may hold
#: a view named like our tables that never ends.
LIMIT_SECONDS = 5.0
#: Larger files are not opened for a summary (a stick's garbage need not be read through).
MAX_BYTES = 4 * 1024**3
COUNTS = (
    "SELECT (SELECT count(*) FROM tournaments_tournament), (SELECT count(*) FROM scoring_game), "
    "(SELECT max(created_at) FROM scoring_game)"
)


@dataclass(frozen=True, slots=True)
class Summary:
    tournaments: int | None = None
    deals: int | None = None
    latest: datetime | None = None
    #: Why nothing could be counted (a damaged file, a dump), else empty.
    note: str = ""

    def line(self) -> str:
        """ "3 tournaments, 412 deals, the latest at 2026-11-26 22:04", or the note."""
        if self.tournaments is None:
            return self.note
        latest = (
            f", the latest at {timezone.localtime(self.latest).strftime('%Y-%m-%d %H:%M')}"
            if self.latest
            else ", no deal yet"
        )
        return f"{self.tournaments} tournament(s), {self.deals} deal(s){latest}"


def _when(value: object) -> datetime | None:
    if isinstance(value, datetime):
        moment = value
    elif isinstance(value, str):
        try:
            moment = datetime.fromisoformat(value)
        except ValueError:
            return None
    else:
        return None
    return moment if timezone.is_aware(moment) else moment.replace(tzinfo=UTC)


def _counted(row: tuple) -> Summary:
    tournaments, deals, latest = row
    if not isinstance(tournaments, int) or not isinstance(deals, int):
        return Summary(note="its tables do not hold what the office writes")
    return Summary(tournaments, deals, _when(latest))


def of_sqlite(path: Path, *, read_only: bool = True) -> Summary:
    """What the SQLite file at ``path`` holds; never raises for a bad file."""
    try:
        size = path.stat().st_size
        with path.open("rb") as handle:
            head = handle.read(16)
    except OSError as error:
        return Summary(note=f"cannot be read: {error.strerror or error}")
    if not head.startswith(SQLITE_HEADER):
        return Summary(note="not an SQLite database (damaged?)")
    if size > MAX_BYTES:
        return Summary(note=f"{size // 1024**2} MB, too large to be counted here")
    deadline = time.monotonic() + LIMIT_SECONDS
    try:
        target = path.resolve().as_uri() + "?mode=ro" if read_only else str(path)
        handle = sqlite3.connect(target, uri=read_only, timeout=5)
    except sqlite3.Error as error:
        return Summary(note=f"cannot be opened: {error}")
    try:
        handle.set_progress_handler(lambda: time.monotonic() > deadline, 10_000)
        if read_only:  # a file from elsewhere: its views and triggers may call no function with side effects
            handle.execute("PRAGMA trusted_schema=OFF")
        handle.execute("PRAGMA query_only=ON")
        return _counted(handle.execute(COUNTS).fetchone())
    except sqlite3.Error as error:
        why = "counting took too long" if time.monotonic() > deadline else str(error)
        return Summary(note=f"cannot be read: {why}")
    finally:
        handle.close()


def of_backup(path: Path) -> Summary:
    """What a backup file holds: an SQLite copy counted, a PostgreSQL dump described."""
    if path.suffix == ".pgdump":
        try:
            size = path.stat().st_size
        except OSError as error:
            return Summary(note=f"cannot be read: {error.strerror or error}")
        return Summary(note=f"a PostgreSQL dump of {max(1, size // 1024)} KB (its deals are counted once restored)")
    return of_sqlite(path)


def of_database_in_use() -> Summary:
    """What the configured database holds now (SQLite read as a file, PostgreSQL asked)."""
    settings_dict = connections["default"].settings_dict
    if settings_dict["ENGINE"].endswith("sqlite3"):
        path = Path(str(settings_dict["NAME"]))
        if not path.is_file():
            return Summary(note="no database yet")
        return of_sqlite(path, read_only=False)
    try:
        with connections["default"].cursor() as cursor:
            cursor.execute(COUNTS)
            return _counted(cursor.fetchone())
    except Exception as error:  # any database error is said, not raised
        return Summary(note=f"cannot be read: {str(error).splitlines()[0] if str(error) else type(error).__name__}")
