"""core.restore.check: only a backup the office made is brought back; anything else is
refused, naming why, before anything is changed. The restore itself runs
for real in tests/office/test_backup_after_kill.py."""

from __future__ import annotations

import io
import sqlite3

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection

from core import backups
from core.backups import BackupError
from core.restore import check

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(not backups.is_sqlite(), reason="SQLite files; a dump: test_restore_postgres.py"),
]


def sqlite_file(path, application_id: int = backups.MARK, *, from_tests_db: bool = True):
    """A copy of the tests' migrated database (as a backup is), marked or not."""
    with sqlite3.connect(path) as copy:
        if from_tests_db:
            with sqlite3.connect(connection.settings_dict["NAME"]) as source:
                source.backup(copy)
        else:
            copy.execute("CREATE TABLE notes (text TEXT)")
        copy.execute(f"PRAGMA application_id={application_id}")
    return path


def test_a_backup_of_ours_passes_whatever_its_folder_is_called(tmp_path):
    stick = tmp_path / "Sicherung #2 100% ?"
    stick.mkdir()
    assert check(sqlite_file(stick / "b.sqlite3")).kind == "sqlite"


@pytest.mark.parametrize(
    ("make", "why"),
    [
        (lambda p: p, "does not exist"),
        (
            lambda p: p.write_text("Vorname;Name\nAnna;Müller\n") and p,
            "neither an SQLite database nor a PostgreSQL dump",
        ),
        (lambda p: p.write_bytes(b"PGDMP\x01\x0e") and p, "is a PostgreSQL backup, but this office uses SQLite"),
        (lambda p: sqlite_file(p, application_id=0), "not a backup the office made"),
        (lambda p: sqlite_file(p, from_tests_db=False), "it is not a database of the office"),
        (lambda p: p.write_bytes(b"SQLite format 3\x00" + b"\x00" * 84) and p, "cannot be"),
    ],
)
def test_anything_else_is_refused_naming_why(tmp_path, make, why):
    path = make(tmp_path / "evening.sqlite3")
    with pytest.raises(BackupError, match=why):
        check(path)


def test_a_backup_damaged_inside_is_refused(tmp_path):
    """A page overwritten on the stick: the header, the mark and the tables still read."""
    path = sqlite_file(tmp_path / "b.sqlite3")
    with sqlite3.connect(path) as db:
        page = db.execute("PRAGMA page_size").fetchone()[0]
    with path.open("r+b") as handle:
        handle.seek(path.stat().st_size // 2 // page * page)
        handle.write(b"\xff" * page)
    with pytest.raises(BackupError, match="is damaged and cannot be"):
        check(path)


def test_a_backup_of_a_newer_office_is_refused(tmp_path):
    path = sqlite_file(tmp_path / "b.sqlite3")
    with sqlite3.connect(path) as db:
        db.execute(
            "INSERT INTO django_migrations (app, name, applied) VALUES ('scoring', '0099_future', '2027-01-01')"
        )
    with pytest.raises(BackupError, match=r"newer version of the office \(scoring.0099_future is unknown here\)"):
        check(path)


def test_the_command_refuses_in_one_line_and_asks_before_restoring(tmp_path, monkeypatch, settings):
    settings.DATA_DIR = tmp_path / "data"
    with pytest.raises(CommandError, match=r"^Not restored: .*nothing.sqlite3 does not exist\.$"):
        call_command("restore", str(tmp_path / "nothing.sqlite3"))
    monkeypatch.setattr("builtins.input", lambda prompt: "no")
    out = io.StringIO()
    with pytest.raises(CommandError, match="the answer was not 'yes'"):
        call_command("restore", str(sqlite_file(tmp_path / "b.sqlite3")), stdout=out)
    said = out.getvalue()
    assert "In use, " in said and "tournament(s)" in said and "without a secret key" in said
    assert not (tmp_path / "data" / "office.lock").read_text()  # the data folder is let go
