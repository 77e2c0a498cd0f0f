"""Whether the database keeps what it confirmed.

A deal the phone saw confirmed must survive a power cut. SQLite does so in WAL mode with
``synchronous=FULL`` (the write-ahead log is flushed to the disk at every commit; the
settings' ``init_command``); NORMAL may lose the last commits. PostgreSQL does so unless
``fsync`` is off or ``synchronous_commit`` is ``off``: ``local``, ``on``, ``remote_write``
and ``remote_apply`` all wait until the commit is on this server's disk (the last two also
for a standby), so only ``off`` may lose it. ``serve`` refuses a database that may lose
commits (office.start) and ``/healthz`` reports it (config.health), each in one line
saying how to fix it.

A SQLite file damaged by a disk or a copy gone wrong is core.rescue's to find (its header,
``PRAGMA quick_check``); ``serve`` asks it before it migrates (office.start).
"""

from __future__ import annotations

from django.db.backends.base.base import BaseDatabaseWrapper
from django.utils.translation import gettext as _

#: ``PRAGMA synchronous``: 2 is FULL, 3 EXTRA; both flush the WAL at every commit.
SQLITE_FULL = 2
#: The values of PostgreSQL's ``synchronous_commit`` that wait for this server's disk.
DURABLE_COMMITS = ("on", "local", "remote_write", "remote_apply")


def query(vendor: str) -> str | None:
    """The one query that reads the database's durability settings, None for another database."""
    if vendor == "sqlite":
        return "PRAGMA synchronous"
    if vendor == "postgresql":
        return "SELECT current_setting('synchronous_commit'), current_setting('fsync')"
    return None


def problem_of(vendor: str, row: tuple) -> str | None:
    """Why the settings in ``row`` (what :func:`query` read) may lose a confirmed commit in a
    power cut, in one line that says how to fix it; None when they keep every commit."""
    if vendor == "sqlite":
        if int(row[0]) >= SQLITE_FULL:
            return None
        return _(
            "SQLite runs with PRAGMA synchronous=%(level)s: a confirmed deal may be lost in a power cut. "
            "Keep synchronous=FULL in the settings' init_command."
        ) % {"level": row[0]}
    if vendor == "postgresql":
        commit, fsync = (str(value).lower() for value in row)
        if fsync != "on":
            return _(
                "PostgreSQL runs with fsync = %(value)s: a confirmed deal may be lost in a power cut. "
                "Set it on (ALTER SYSTEM SET fsync = on; SELECT pg_reload_conf();) and start again."
            ) % {"value": fsync}
        if commit not in DURABLE_COMMITS:
            return _(
                "PostgreSQL runs with synchronous_commit = %(value)s: a confirmed deal may be lost in a power "
                "cut. Set it on (ALTER SYSTEM SET synchronous_commit = on; SELECT pg_reload_conf();) and start again."
            ) % {"value": commit}
    return None


def problem(connection: BaseDatabaseWrapper) -> str | None:
    """Why ``connection``'s database may lose a confirmed commit in a power cut, or None (one query)."""
    sql = query(connection.vendor)
    if sql is None:
        return None
    with connection.cursor() as cursor:
        cursor.execute(sql)
        return problem_of(connection.vendor, cursor.fetchone())
