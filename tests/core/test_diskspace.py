"""core.diskspace: a full disk is recognised in the system's, SQLite's and PostgreSQL's
words, also wrapped in Django's database errors."""

from __future__ import annotations

import errno
import sqlite3

import psycopg.errors
import pytest
from django.db import utils

from core.diskspace import is_full


def real_sqlite_full(tmp_path) -> sqlite3.OperationalError:
    """SQLite's own error when it may not grow (max_page_count reached, as on a full disk)."""
    db = sqlite3.connect(tmp_path / "small.sqlite3")
    db.execute("CREATE TABLE deals (notes BLOB)")
    db.execute(f"PRAGMA max_page_count = {db.execute('PRAGMA page_count').fetchone()[0]}")
    try:
        db.execute("INSERT INTO deals VALUES (?)", [b"x" * 100_000])
    except sqlite3.OperationalError as error:
        return error
    finally:
        db.close()
    raise AssertionError("SQLite grew past max_page_count")


def wrapped(error: Exception) -> utils.OperationalError:
    """As Django's database wrapper raises it: its own class, from the driver's error."""
    try:
        raise utils.OperationalError(*error.args) from error
    except utils.OperationalError as outer:
        return outer


def test_sqlites_full_database_is_full_also_wrapped(tmp_path):
    error = real_sqlite_full(tmp_path)
    assert str(error) == "database or disk is full"
    assert is_full(error) and is_full(wrapped(error))


@pytest.mark.parametrize("code", [errno.ENOSPC, errno.EDQUOT])
def test_the_systems_no_space_is_full(code):
    assert is_full(OSError(code, "No space left on device"))


def test_postgresqls_disk_full_is_full():
    assert is_full(wrapped(psycopg.errors.DiskFull("could not extend file: No space left on device")))


@pytest.mark.parametrize(
    "error",
    [
        OSError(errno.EACCES, "Permission denied"),
        sqlite3.OperationalError("database is locked"),
        ValueError("full"),
        None,
    ],
)
def test_other_errors_are_not(error):
    assert not is_full(error)
