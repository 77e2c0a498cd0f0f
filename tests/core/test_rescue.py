"""core.rescue: a damaged database in use is recognised and moved aside whole; the
backup's secret key is put back, or the restore says that PINs and links change."""

from __future__ import annotations

import sqlite3

import pytest
from django.test import override_settings

from core import rescue
from core.backups import key_of

KEY = "k3y-" + "x" * 60


def database(path):
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE notes (text TEXT)")
        db.executemany("INSERT INTO notes VALUES (?)", [("deal",)] * 500)
    return path


def test_a_whole_database_or_none_at_all_is_not_damaged(tmp_path):
    assert rescue.damage(database(tmp_path / "db.sqlite3")) == ""
    assert rescue.damage(tmp_path / "missing.sqlite3") == ""
    (tmp_path / "empty.sqlite3").write_bytes(b"")
    assert rescue.damage(tmp_path / "empty.sqlite3") == ""


def test_an_overwritten_header_and_a_damaged_page_are_damage(tmp_path):
    path = database(tmp_path / "db.sqlite3")
    with path.open("r+b") as handle:
        handle.write(b"x" * 100)  # the power cut's first 100 bytes
    assert rescue.damage(path) == "file is not a database"
    other = database(tmp_path / "other.sqlite3")
    with other.open("r+b") as handle:
        handle.seek(4096)
        handle.write(b"\xff" * 4096)
    assert rescue.damage(other) != ""


def test_the_damaged_database_moves_aside_with_its_log_and_key(tmp_path):
    path = tmp_path / "db.sqlite3"
    path.write_bytes(b"x" * 2048)
    (tmp_path / "db.sqlite3-wal").write_bytes(b"log")
    key_file = tmp_path / "db.sqlite3.secret-key"
    key_file.write_text(KEY)
    with override_settings(SECRET_KEY_FILE=key_file):
        moved = rescue.move_aside(path)
    aside, log = moved
    assert aside.name.startswith("db.sqlite3.damaged-") and log.name == aside.name + "-wal"
    assert aside.read_bytes() == b"x" * 2048 and log.read_bytes() == b"log"
    assert not path.exists() and not (tmp_path / "db.sqlite3-wal").exists()
    assert key_of(aside).read_text().strip() == KEY and key_of(aside).stat().st_mode & 0o777 == 0o600


@pytest.fixture
def key_file(tmp_path, monkeypatch):
    monkeypatch.delenv("SECRET_KEY", raising=False)
    path = tmp_path / "data" / "db.sqlite3.secret-key"
    with override_settings(SECRET_KEY_FILE=path):
        yield path


def test_the_backups_key_comes_back_private(tmp_path, key_file):
    backup = tmp_path / "skat-office-x.sqlite3"
    key_of(backup).write_text(KEY + "\n")
    said = rescue.put_key_back(backup)
    assert said == f"The backup's secret key is back in {key_file}: PINs and player links stay as printed."
    assert key_file.read_text() == KEY + "\n" and key_file.stat().st_mode & 0o777 == 0o600


@pytest.mark.parametrize("content", [None, "", "two words", "x" * 5000])
def test_a_backup_without_a_usable_key_says_pins_change_and_keeps_the_key_file(tmp_path, key_file, content):
    backup = tmp_path / "skat-office-x.sqlite3"
    if content is not None:
        key_of(backup).write_text(content)
    key_file.parent.mkdir()
    key_file.write_text("the-laptops-own-key")
    said = rescue.put_key_back(backup)
    # The laptop's key is kept: PINs change only if the backup was made under another key.
    assert "the office keeps its own. PINs and player links change if the backup was made under another key" in said
    assert "print the PIN slips and table cards again" in said
    assert key_file.read_text() == "the-laptops-own-key"


def test_a_key_from_the_environment_is_left_alone(tmp_path, key_file, monkeypatch):
    monkeypatch.setenv("SECRET_KEY", KEY)
    backup = tmp_path / "skat-office-x.sqlite3"
    key_of(backup).write_text("the-backups-key")
    assert "SECRET_KEY is set in the environment: no key file is written" in rescue.put_key_back(backup)
    assert not key_file.exists()


def test_a_key_that_cannot_be_written_says_what_to_copy_by_hand(tmp_path, monkeypatch):
    monkeypatch.delenv("SECRET_KEY", raising=False)
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder")
    backup = tmp_path / "skat-office-x.sqlite3"
    key_of(backup).write_text(KEY)
    with override_settings(SECRET_KEY_FILE=blocked / "db.sqlite3.secret-key"):
        said = rescue.put_key_back(backup)
    assert said.startswith(f"The backup's secret key could not be written to {blocked / 'db.sqlite3.secret-key'}")
    assert f"copy {key_of(backup)} there by hand" in said
