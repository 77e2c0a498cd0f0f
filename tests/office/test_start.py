"""What `serve` makes sure of before it migrates and serves (office.start), each refusal one
line: one office per data folder, a damaged database named with the restore of its newest
backup, a database that may lose commits, a secret key file found damaged."""

from __future__ import annotations

import sqlite3

import pytest
from django.core.management import CommandError
from django.db import DatabaseError, connection
from django.db.utils import ConnectionHandler
from django.utils import translation

from config import hall
from core import durability
from core.datalock import DataLock
from office import start

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _english():
    with translation.override("en"):
        yield


@pytest.fixture
def data(settings, tmp_path, monkeypatch):
    """A data folder of the test's own, no second backup folder."""
    settings.DATA_DIR = tmp_path
    monkeypatch.delenv("SKAT_OFFICE_BACKUP_DIR", raising=False)
    monkeypatch.delenv("SKAT_OFFICE_DATA", raising=False)
    return tmp_path


def test_the_first_office_holds_the_folder_and_a_second_is_refused_naming_it(data):
    first = start.hold(data)
    try:
        with pytest.raises(CommandError) as refused:
            start.hold(data)
    finally:
        first.release()
    line = str(refused.value)
    assert line.startswith(f"Another office uses the data folder {data} (serve pid ")
    assert "stop it first, or start this one with another --data-dir" in line and "\n" not in line
    start.hold(data).release()  # stopped, the folder is free again


def backup(folder, name):
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_bytes(b"")
    return folder / name


def test_the_damaged_database_line_names_the_file_and_the_newest_backup(data, monkeypatch):
    backup(data / "backups", "skat-office-2026-11-26_20-50-00-000.sqlite3")
    newest = backup(data / "backups", "skat-office-2026-11-26_21-55-00-000-series.sqlite3")
    stick = data / "usb"
    backup(stick, "skat-office-2026-11-26_21-00-00-000.sqlite3")
    backup(data / "backups", "skat-office-2026-11-26_22-10-00-000-before-restore.sqlite3")
    monkeypatch.setenv("SKAT_OFFICE_BACKUP_DIR", str(stick))
    monkeypatch.setattr(start, "damage", lambda database=None: "file is not a database")
    with pytest.raises(CommandError) as refused:
        start.check_database()
    line = str(refused.value)
    assert line.startswith("The database ") and "is damaged (file is not a database)." in line
    assert line.endswith(f'Restore the newest backup: skat-office restore "{newest}"')
    monkeypatch.setenv("SKAT_OFFICE_DATA", str(data))  # the folder chosen at this start goes with it
    assert start.restore_command(newest).endswith(f' --data-dir "{data}"')


def test_without_a_backup_the_line_says_what_else_to_do(data, monkeypatch):
    line = start.damaged_message("database disk image is malformed")
    assert f"No backup was found in {data / 'backups'}" in line and "move the damaged file away" in line


def test_a_database_that_may_lose_commits_is_refused(data, monkeypatch):
    monkeypatch.setattr(durability, "problem", lambda connection: "PostgreSQL runs with fsync = off: ...")
    with pytest.raises(CommandError, match="fsync = off"):
        start.check_database()


def test_a_database_server_that_does_not_answer_is_refused_naming_where():
    """Nothing listens on port 9 of this machine (the discard port): the connection is refused."""
    handler = ConnectionHandler(
        {"default": {"ENGINE": "django.db.backends.postgresql", "NAME": "hall", "HOST": "127.0.0.1", "PORT": "9"}}
    )
    unreachable = handler["default"]
    with pytest.raises(CommandError) as refused:
        start.check_database(unreachable)
    line = str(refused.value)
    assert "\n" not in line and "127.0.0.1:9 (database hall) does not answer" in line
    assert "DATABASE_URL" in line


def test_a_whole_durable_database_passes():
    start.check_database()
    assert start.damage() == ""


def copy_of_the_test_database(tmp_path):
    path = tmp_path / "db.sqlite3"
    with sqlite3.connect(connection.settings_dict["NAME"]) as source, sqlite3.connect(path) as copy:
        source.backup(copy)
    return path


@pytest.fixture
def sqlite_file(tmp_path):
    if connection.vendor != "sqlite":
        pytest.skip("a damaged file is SQLite's")
    return copy_of_the_test_database(tmp_path)


def sqlite(path) -> dict:
    return {"ENGINE": "django.db.backends.sqlite3", "NAME": str(path)}


def test_a_whole_file_and_a_first_start_have_no_damage(sqlite_file, tmp_path):
    assert start.damage(sqlite(sqlite_file)) == ""
    assert start.damage(sqlite(tmp_path / "not-yet.sqlite3")) == ""  # migrate makes it
    assert start.damage({"ENGINE": "django.db.backends.postgresql", "NAME": "skat"}) == ""


def test_a_file_whose_first_100_bytes_were_overwritten_is_damaged(sqlite_file):
    with open(sqlite_file, "r+b") as handle:
        handle.write(b"\xa5" * 100)
    assert start.damage(sqlite(sqlite_file)) == "file is not a database"


def test_a_file_cut_short_is_damaged(sqlite_file):
    with open(sqlite_file, "r+b") as handle:
        handle.truncate(sqlite_file.stat().st_size // 2)
    what = start.damage(sqlite(sqlite_file))
    assert what and what != "ok"


def test_migrate_failing_on_a_damaged_file_is_told_in_one_line(data, monkeypatch):
    monkeypatch.setattr(start, "damage", lambda database=None: "database disk image is malformed")
    with pytest.raises(CommandError, match=r"is damaged \(database disk image is malformed\)"), start.damage_told():
        raise DatabaseError("database disk image is malformed")
    monkeypatch.setattr(start, "damage", lambda database=None: "")  # another error stays itself
    with pytest.raises(DatabaseError, match="database is locked"), start.damage_told():
        raise DatabaseError("database is locked")


def test_a_replaced_key_is_said_once_and_the_file_key_is_the_settings(settings, tmp_path, monkeypatch):
    settings.SECRET_KEY_FILE = tmp_path / "db.sqlite3.secret-key"
    settings.SECRET_KEY_FILE.write_bytes(b"\0" * 68)
    monkeypatch.setattr(hall, "replaced", [])
    settings.SECRET_KEY = settings.SECRET_KEY  # restored after the test
    lines = start.secret_key()
    assert len(lines) == 1 and str(settings.SECRET_KEY_FILE) in lines[0] and "new key" in lines[0]
    assert hall.read_secret_key(settings.SECRET_KEY_FILE) == settings.SECRET_KEY
    assert start.secret_key() == []  # said once


def test_the_lock_is_the_data_folders_own_file(data):
    with DataLock(data, purpose="restore"), pytest.raises(CommandError, match=r"\(restore pid "):
        start.hold(data)


def test_the_refusals_speak_the_terminals_language(data):
    first = start.hold(data)
    try:
        with translation.override("de"), pytest.raises(CommandError) as refused:
            start.hold(data)
        with translation.override("de"):
            damaged = start.damaged_message("file is not a database")
    finally:
        first.release()
    assert str(refused.value).startswith(f"Eine andere Turnierleitung nutzt den Datenordner {data} (serve pid ")
    assert "ist beschädigt (file is not a database). In " in damaged and "keine Sicherung gefunden" in damaged


def test_a_database_server_that_answers_but_refuses_the_database_is_not_said_not_to_answer():
    """The server runs (this machine's PostgreSQL) but has no such database: "start it" would mislead."""
    if connection.vendor != "postgresql":
        pytest.skip("needs the PostgreSQL server the suite runs against")
    settings_dict = connection.settings_dict | {"NAME": "no_such_database_of_the_office"}
    handler = ConnectionHandler({"default": settings_dict})
    with pytest.raises(CommandError) as refused:
        start.check_database(handler["default"])
    line = str(refused.value)
    assert "\n" not in line and "does not answer" not in line
    assert "refused the connection to database no_such_database_of_the_office" in line
    assert 'database "no_such_database_of_the_office" does not exist' in line
