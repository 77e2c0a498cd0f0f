"""On PostgreSQL (the league server): a pg_dump backup passes the check and comes back
with pg_restore, the database in use saved first. Runs in the PostgreSQL pass."""

from __future__ import annotations

import pytest
from django.test import override_settings

from core import backups
from core.backups import BackupError
from core.restore import check, restore
from scoring.models import Game
from tests import factories

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(backups.is_sqlite(), reason="PostgreSQL only: pg_dump and pg_restore"),
]


def test_a_dump_is_checked_and_restored_after_a_safety_copy(tmp_path, monkeypatch):
    monkeypatch.delenv(backups.SECOND_DIR_ENV, raising=False)
    table = factories.table_of(3)
    factories.game(table, 1, passed_out=True)
    with override_settings(DATA_DIR=tmp_path):
        (dump,) = backups.make_backup().made
        assert dump.suffix == ".pgdump" and check(dump).kind == "postgres"
        factories.game(table, 2, passed_out=True)  # after the backup: gone after the restore
        safety = restore(dump).safety
    assert safety is not None and backups.BEFORE_RESTORE in safety.name
    assert list(Game.objects.filter(table=table).values_list("number", flat=True)) == [1]


def test_a_dump_of_a_newer_office_is_refused(tmp_path, monkeypatch):
    from django.db import connection

    monkeypatch.delenv(backups.SECOND_DIR_ENV, raising=False)
    future = "INSERT INTO django_migrations (app, name, applied) VALUES ('scoring', '0099_future', now())"
    with connection.cursor() as cursor:
        cursor.execute(future)
    try:
        with override_settings(DATA_DIR=tmp_path):
            (dump,) = backups.make_backup().made
    finally:  # django_migrations is no model's table: the flush after the test would keep the row
        with connection.cursor() as cursor:
            cursor.execute("DELETE FROM django_migrations WHERE name = '0099_future'")
    with pytest.raises(BackupError, match=r"newer version of the office \(scoring.0099_future is unknown here\)"):
        check(dump)


def test_an_sqlite_backup_is_refused_on_postgresql(tmp_path):
    path = tmp_path / "b.sqlite3"
    path.write_bytes(b"SQLite format 3\x00" + b"\x00" * 84)
    with pytest.raises(BackupError, match="is an SQLite backup, but this office uses PostgreSQL"):
        check(path)
