"""A deal the phone saw confirmed survives a power cut: the database flushes every commit to
the disk, on SQLite as on PostgreSQL."""

from __future__ import annotations

import sqlite3

import pytest
from django.db import connection, connections

from core import durability

pytestmark = pytest.mark.django_db


def test_a_real_connection_flushes_every_commit():
    """The settings in force on the database the tests run on (SQLite, or PostgreSQL with DATABASE_URL)."""
    with connection.cursor() as cursor:
        if connection.vendor == "sqlite":
            assert cursor.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
            assert cursor.execute("PRAGMA synchronous").fetchone()[0] in (2, 3)  # FULL or EXTRA
        elif connection.vendor == "postgresql":
            cursor.execute("SHOW synchronous_commit")
            assert cursor.fetchone()[0] in durability.DURABLE_COMMITS
            cursor.execute("SHOW fsync")
            assert cursor.fetchone()[0] == "on"
        else:
            pytest.skip(f"no durability settings known for {connection.vendor}")
    assert durability.problem(connection) is None


def test_a_real_connection_that_may_lose_commits_is_found(tmp_path):
    """The setting changed on a real connection, as an edited init_command or a per-user
    setting would: the one query reads what is in force."""
    if connection.vendor == "sqlite":
        options = connection.settings_dict["OPTIONS"]
        edited = options["init_command"].replace("synchronous=FULL", "synchronous=NORMAL")
        assert edited != options["init_command"]
        checked = connections["default"].__class__(
            {
                **connection.settings_dict,
                "NAME": str(copy_of_the_test_database(tmp_path)),
                "OPTIONS": {**options, "init_command": edited},
            },
            alias="checked",
        )
        try:
            assert "synchronous=1" in durability.problem(checked)
        finally:
            checked.close()
    elif connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL synchronous_commit = off")  # until the test's transaction ends
        assert "synchronous_commit = off" in durability.problem(connection)
    else:
        pytest.skip(f"no durability settings known for {connection.vendor}")


def test_sqlite_below_full_is_refused_saying_what_to_keep():
    assert durability.problem_of("sqlite", (2,)) is None and durability.problem_of("sqlite", (3,)) is None
    for level in (0, 1):
        line = durability.problem_of("sqlite", (level,))
        assert f"synchronous={level}" in line and "synchronous=FULL" in line and "power cut" in line


@pytest.mark.parametrize("commit", ["on", "local", "remote_write", "remote_apply", "ON"])
def test_postgresql_commits_that_wait_for_the_disk_are_kept(commit):
    assert durability.problem_of("postgresql", (commit, "on")) is None


def test_postgresql_without_synchronous_commit_or_fsync_is_refused_with_the_fix():
    line = durability.problem_of("postgresql", ("off", "on"))
    assert "synchronous_commit = off" in line and "ALTER SYSTEM SET synchronous_commit = on" in line
    line = durability.problem_of("postgresql", ("on", "off"))
    assert "fsync = off" in line and "ALTER SYSTEM SET fsync = on" in line
    assert "\n" not in line and durability.problem_of("mysql", ("off",)) is None


def copy_of_the_test_database(tmp_path):
    path = tmp_path / "db.sqlite3"
    with sqlite3.connect(connection.settings_dict["NAME"]) as source, sqlite3.connect(path) as copy:
        source.backup(copy)
    return path
