"""`skat-office restore` (manage.py restore) as a director meets it on the night it is
needed: the database in use damaged by a power cut, an office still serving the folder,
backups to choose from by what they hold, the secret key carried so PINs stay.

The restores that replace a database run in their own process on their own data folder
(never the tests' database); the refusals run in this one, as they change nothing.
"""

from __future__ import annotations

import io
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection

from core import backups
from core.datalock import DataLock

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(not backups.is_sqlite(), reason="the restored office runs on its own SQLite file"),
]

KEY = "k3y-" + "x" * 60


def office_env(data: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in {backups.SECOND_DIR_ENV, "CACHE_DIR", "SECRET_KEY_FILE"}}
    env.pop("SECRET_KEY", None)
    return env | {
        "DATABASE_URL": f"sqlite:///{data / 'db.sqlite3'}",
        "SKAT_OFFICE_DATA": str(data),
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DEBUG": "1",
    }


def manage(data: Path, *args: str, stdin: str = "") -> subprocess.CompletedProcess:
    command = [sys.executable, "manage.py", "restore", *args]
    return subprocess.run(
        command, cwd=settings.BASE_DIR, env=office_env(data), capture_output=True, text=True, input=stdin
    )


def backup_of_the_tests_database(folder: Path, *, key: str | None = KEY, at: str = "21-55-00-000-series") -> Path:
    """A backup as the office makes it: the migrated tests' database, marked, its key beside."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"skat-office-2026-11-26_{at}.sqlite3"
    with sqlite3.connect(connection.settings_dict["NAME"]) as source, sqlite3.connect(path) as copy:
        source.backup(copy)
        copy.execute(f"PRAGMA application_id={backups.MARK}")
    if key is not None:
        backups.key_of(path).write_text(key + "\n")
    return path


@pytest.fixture
def evening(tmp_path):
    """A data folder whose database a power cut damaged (its first 100 bytes), with its key."""
    data = tmp_path / "evening"
    backup = backup_of_the_tests_database(data / "backups")
    database = data / "db.sqlite3"
    with sqlite3.connect(backup) as source, sqlite3.connect(database) as db:
        source.backup(db)
    with database.open("r+b") as handle:
        handle.write(b"x" * 100)
    (data / "db.sqlite3-wal").write_bytes(b"")
    (data / "db.sqlite3.secret-key").write_text("a-key-the-power-cut-left\n")
    return data, backup


def test_a_damaged_database_is_moved_aside_and_the_backup_and_its_key_come_back(evening):
    data, backup = evening
    done = manage(data, str(backup), "--no-input")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith(f"The damaged database was moved aside: {data / 'db.sqlite3.damaged-'}")
    key_file = data / "db.sqlite3.secret-key"
    assert lines[1] == f"The backup's secret key is back in {key_file}: PINs and player links stay as printed."
    assert lines[2] == f"Restored {backup}."
    assert "Traceback" not in done.stderr
    with sqlite3.connect(data / "db.sqlite3") as db:
        assert db.execute("PRAGMA quick_check").fetchone() == ("ok",)
    assert (data / "db.sqlite3.secret-key").read_text().strip() == KEY
    (aside,) = [
        p
        for p in data.iterdir()
        if p.name.startswith("db.sqlite3.damaged-") and not p.name.endswith(("-wal", "-shm", ".secret-key"))
    ]
    assert aside.read_bytes()[:100] == b"x" * 100
    assert (
        Path(str(aside) + "-wal").exists() and backups.key_of(aside).read_text().strip() == "a-key-the-power-cut-left"
    )


def test_the_prompt_lists_the_backups_with_what_each_holds_and_restores_the_one_picked(evening):
    data, backup = evening
    older = backup_of_the_tests_database(data / "backups", key=None, at="20-00-00-000")
    done = manage(data, stdin="2\nyes\n")
    assert done.returncode == 0, done.stderr
    said = done.stdout
    assert "In use, " in said and "damaged (file is not a database): it is moved aside, not overwritten" in said
    assert f"  1  {backup}\n     0 tournament(s), 0 deal(s), no deal yet; with its secret key" in said
    assert f"  2  {older}\n     0 tournament(s), 0 deal(s), no deal yet; without a secret key" in said
    assert "The backup carries no secret key" in said and "PINs and player links change" in said
    assert said.rstrip().endswith(f"Restored {older}.")


def test_an_office_serving_the_folder_refuses_the_restore_and_nothing_changes(tmp_path, monkeypatch):
    monkeypatch.setattr(settings, "DATA_DIR", tmp_path)
    backup = backup_of_the_tests_database(tmp_path / "backups")
    refusal = rf"^Not restored: An office is using {tmp_path} \(serve pid \d+ .*\): stop it first, then restore\.$"
    with DataLock(tmp_path, "serve"):
        before = sorted(p.name for p in tmp_path.iterdir())
        with pytest.raises(CommandError, match=refusal):
            call_command("restore", str(backup), "--no-input")
        assert sorted(p.name for p in tmp_path.iterdir()) == before
        assert "serve pid" in (tmp_path / "office.lock").read_text()  # still the serving office's


def test_without_a_file_and_without_asking_nothing_is_picked(tmp_path, monkeypatch):
    monkeypatch.setattr(settings, "DATA_DIR", tmp_path)
    with pytest.raises(CommandError, match=r"^Not restored: name the backup file"):
        call_command("restore", "--no-input")
    monkeypatch.setattr("builtins.input", lambda prompt: "7")
    with pytest.raises(CommandError, match=r"^Not restored: no backup in "):
        call_command("restore")


@pytest.mark.parametrize("answer", ["²", "9" * 5000, "0", "2"])
def test_an_answer_that_names_no_offered_backup_is_refused_in_one_line(tmp_path, monkeypatch, answer):
    monkeypatch.setattr(settings, "DATA_DIR", tmp_path)
    monkeypatch.delenv(backups.SECOND_DIR_ENV, raising=False)  # only the one backup below is offered
    backup = backup_of_the_tests_database(tmp_path / "backups")
    monkeypatch.setattr("builtins.input", lambda prompt: answer)
    with pytest.raises(CommandError, match=r"^Not restored: .* is not one of the numbers 1 to 1\.$"):
        call_command("restore", stdout=io.StringIO())
    # Nothing restored: no database in the data folder, no safety copy beside the backup.
    assert not (tmp_path / "db.sqlite3").exists()
    assert sorted(p.name for p in backup.parent.glob("*.sqlite3")) == [backup.name]
