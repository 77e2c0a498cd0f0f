"""A full disk, recognised in whatever error says it: the system's, SQLite's, PostgreSQL's.

A hall laptop's disk fills (a video download, a years-old backup folder). The office must
then say "the disk is full", not "something went wrong": the remedy is the director's
(free space), and a phone's deal must stay on the phone. The error reaches the office
wrapped (Django's ``OperationalError`` around SQLite's or psycopg's), so the chain of
causes is looked through.
"""

from __future__ import annotations

import errno

#: The system's words for a full disk or a full quota.
ERRNOS = frozenset({errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC)})
#: SQLite's message for SQLITE_FULL (also what it says when max_page_count is reached).
SQLITE_WORDS = "database or disk is full"
#: PostgreSQL's SQLSTATE disk_full (psycopg's ``errors.DiskFull``).
POSTGRES_STATE = "53100"


def is_full(error: BaseException | None) -> bool:
    """Whether ``error``, or one of the errors it was raised from, says the disk is full."""
    seen = 0
    while error is not None and seen < 20:
        if isinstance(error, OSError) and error.errno in ERRNOS:
            return True
        if POSTGRES_STATE in (getattr(error, "sqlstate", None), getattr(error, "pgcode", None)):
            return True
        if type(error).__name__ == "DiskFull" or SQLITE_WORDS in str(error):
            return True
        error = error.__cause__ or error.__context__
        seen += 1
    return False
