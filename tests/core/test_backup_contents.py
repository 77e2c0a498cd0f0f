"""core.backup_contents: what a backup holds in one line, from a file opened read-only;
a garbage or hostile file is said, never a traceback or an endless count."""

from __future__ import annotations

import sqlite3

import pytest
from django.db import connection

from core import backup_contents, backups
from tests import factories

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not backups.is_sqlite(), reason="SQLite files"),
]


def copy_of_the_database(path):
    with sqlite3.connect(connection.settings_dict["NAME"]) as source, sqlite3.connect(path) as copy:
        source.backup(copy)
    return path


def test_a_backup_says_its_tournaments_deals_and_latest_deal(tmp_path):
    table = factories.table_of(3)
    for number in (1, 2):
        factories.game(table, number, passed_out=True)
    summary = backup_contents.of_backup(copy_of_the_database(tmp_path / "b.sqlite3"))
    assert (summary.tournaments, summary.deals) == (1, 2) and summary.latest is not None
    assert summary.line().startswith("1 tournament(s), 2 deal(s), the latest at ")
    assert backup_contents.of_database_in_use().line() == summary.line()


def test_an_empty_evening_says_no_deal_yet(tmp_path):
    assert backup_contents.of_backup(copy_of_the_database(tmp_path / "b.sqlite3")).line() == (
        "0 tournament(s), 0 deal(s), no deal yet"
    )


@pytest.mark.parametrize(
    ("content", "said"),
    [
        (b"Vorname;Name\nAnna;M\xc3\xbcller\n", "not an SQLite database"),
        (b"SQLite format 3\x00" + b"\x00" * 84, "cannot be read"),
    ],
)
def test_garbage_is_said(tmp_path, content, said):
    path = tmp_path / "b.sqlite3"
    path.write_bytes(content)
    assert said in backup_contents.of_backup(path).line()


def test_a_missing_file_and_a_dump_are_said(tmp_path):
    assert "cannot be read" in backup_contents.of_backup(tmp_path / "gone.sqlite3").line()
    dump = tmp_path / "b.pgdump"
    dump.write_bytes(b"PGDMP" + b"\x00" * 5000)
    assert backup_contents.of_backup(dump).line().startswith("a PostgreSQL dump of 4 KB")


def test_a_hostile_file_with_an_endless_view_is_cut_off(tmp_path, monkeypatch):
    monkeypatch.setattr(backup_contents, "LIMIT_SECONDS", 0.2)
    path = tmp_path / "b.sqlite3"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE tournaments_tournament (id INTEGER)")
        db.execute(
            "CREATE VIEW scoring_game AS WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) "
            "SELECT n AS created_at FROM r"
        )
    assert backup_contents.of_backup(path).line() == "cannot be read: counting took too long"
