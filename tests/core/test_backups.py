"""core.backups and `manage.py backup`: a consistent copy into the data directory and a
second folder, each with the secret key beside it, kept by core.retention; a pulled USB
stick, an unwritable folder or a full disk one line each while the evening goes on, and
the background maker of the serving office."""

from __future__ import annotations

import errno
import io
import logging
import sqlite3
from datetime import timedelta
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import override_settings
from django.utils import timezone

from core import backup_status, backups, pgtools
from dashboard.signals import series_finished
from tests import factories
from tournaments.models import Series

pytestmark = pytest.mark.django_db(transaction=True)


KEY = "k3y-" + "x" * 60


@pytest.fixture
def data_dir(tmp_path, monkeypatch):
    monkeypatch.delenv(backups.SECOND_DIR_ENV, raising=False)
    monkeypatch.delenv("SECRET_KEY", raising=False)
    key_file = tmp_path / "data" / "db.sqlite3.secret-key"
    with override_settings(DATA_DIR=tmp_path / "data", SECRET_KEY_FILE=key_file):
        (tmp_path / "data").mkdir()
        key_file.write_text(KEY + "\n")
        yield tmp_path / "data"


def deals_in(path: Path) -> int:
    if not backups.is_sqlite():
        assert path.read_bytes()[:5] == b"PGDMP"
        return -1
    with sqlite3.connect(path) as copy:
        assert copy.execute("PRAGMA application_id").fetchone()[0] == backups.MARK
        return copy.execute("SELECT count(*) FROM scoring_game").fetchone()[0]


def test_a_backup_is_a_marked_copy_with_every_committed_deal(data_dir):
    table = factories.table_of(3)
    for number in (1, 2, 3):
        factories.game(table, number, passed_out=True)
    result = backups.make_backup()
    assert result.problems == []
    (made,) = result.made
    assert made.parent == data_dir / "backups" and made.name.startswith("skat-office-")
    assert deals_in(made) in (3, -1)
    status = backup_status.read(data_dir)
    assert status.places == [str(made)] and status.problems == [] and status.made_at is not None


def test_the_last_k_are_kept_and_safety_copies_stay(data_dir):
    start = timezone.now()
    for minutes in range(4):
        backups.make_backup(keep=2, now=start + timedelta(minutes=minutes))
    backups.make_backup(backups.BEFORE_RESTORE, keep=2, now=start + timedelta(minutes=5))
    backups.make_backup(keep=2, now=start + timedelta(minutes=6))
    names = [p.name for p in backups.listed(data_dir / "backups")]
    assert len(names) == 3 and backups.BEFORE_RESTORE in names[1]
    assert names[0] < names[1] < names[2]


def test_a_second_folder_gets_the_same_backup(data_dir, tmp_path, monkeypatch):
    stick = tmp_path / "usb"
    stick.mkdir()
    monkeypatch.setenv(backups.SECOND_DIR_ENV, str(stick))
    result = backups.make_backup()
    assert [p.parent for p in result.made] == [data_dir / "backups", stick] and result.problems == []
    assert result.made[0].read_bytes() == result.made[1].read_bytes()


def test_a_pulled_usb_stick_is_one_line_and_the_backup_is_made_all_the_same(data_dir, tmp_path, monkeypatch, caplog):
    stick = tmp_path / "usb" / "skat"  # the stick is gone: neither folder exists
    monkeypatch.setenv(backups.SECOND_DIR_ENV, str(stick))
    result = backups.make_backup()
    assert [p.parent for p in result.made] == [data_dir / "backups"]
    (problem,) = result.problems
    assert str(stick) in problem and "USB stick" in problem and "was made" in problem
    assert not stick.exists()  # never created on the laptop's own disk
    assert [r.getMessage().count("\n") for r in caplog.records] == [0]
    assert backup_status.read(data_dir).problems == [problem]


def test_an_unwritable_data_directory_is_one_line_and_the_usb_stick_still_gets_one(tmp_path, monkeypatch):
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("a file where the data directory should be")
    stick = tmp_path / "usb"
    stick.mkdir()
    monkeypatch.setenv(backups.SECOND_DIR_ENV, str(stick))
    with override_settings(DATA_DIR=blocked):
        result = backups.make_backup()
    assert [p.parent for p in result.made] == [stick]
    problem, unrecorded = result.problems  # the data directory's backup, and the dashboard's record
    assert problem.startswith(f"Backup not written to {blocked / 'backups'}") and "writable" in problem
    assert unrecorded.startswith(f"The record for the dashboard could not be written in {blocked}")


def test_the_command_says_where_and_fails_in_one_line_when_nothing_was_made(data_dir, tmp_path, monkeypatch):
    out = io.StringIO()
    call_command("backup", stdout=out)
    assert out.getvalue().startswith(f"Backup written: {data_dir / 'backups'}")
    monkeypatch.setenv(backups.SECOND_DIR_ENV, str(tmp_path / "gone"))
    with override_settings(DATA_DIR=tmp_path / "file"):
        (tmp_path / "file").write_text("")
        err = io.StringIO()
        with pytest.raises(CommandError, match=r"^No backup was made\.$"):
            call_command("backup", stderr=err)
    assert len(err.getvalue().strip().splitlines()) == 3  # the data directory, the stick, the record
    with pytest.raises(CommandError, match="--keep must be at least 1"):
        call_command("backup", "--keep", "0")


def test_the_background_maker_backs_up_after_a_finished_series_and_stops(data_dir):
    maker = backups.start_background(every_minutes=60, keep=3)
    try:
        series_finished.send(sender=Series, series=None)
        assert maker.wait_for(1, timeout=60)
    finally:
        maker.stop()
    (made,) = backups.listed(data_dir / "backups")
    assert made.stem.endswith("-series")
    assert not maker._thread.is_alive()
    series_finished.send(sender=Series, series=None)  # disconnected: nothing more happens
    assert maker.made == 1


def test_the_background_maker_backs_up_every_interval(data_dir):
    maker = backups.start_background(every_minutes=0.0005, keep=2)
    try:
        assert maker.wait_for(3, timeout=60)
    finally:
        maker.stop()
    assert len(backups.listed(data_dir / "backups")) == 2


def test_pg_dump_missing_is_a_clear_message(monkeypatch):
    monkeypatch.setattr(pgtools.shutil, "which", lambda name: None)
    monkeypatch.setattr(pgtools.glob, "glob", lambda pattern: [])
    with pytest.raises(backups.BackupError, match="pg_dump was not found: install PostgreSQL's client programs"):
        backups.find_postgres_tool("pg_dump")


def test_each_backup_carries_the_secret_key_for_its_owner_only(data_dir, tmp_path, monkeypatch):
    stick = tmp_path / "usb"
    stick.mkdir()
    monkeypatch.setenv(backups.SECOND_DIR_ENV, str(stick))
    start = timezone.now()
    made = backups.make_backup(now=start).made
    assert len(made) == 2
    for backup in made:
        key = backups.key_of(backup)
        assert key.read_text() == KEY + "\n" and key.stat().st_mode & 0o777 == 0o600
    # Pruned with its backup: a cap of 1 leaves the newest backup and its key only.
    newest = backups.make_backup(keep=1, now=start + timedelta(minutes=5)).made
    for folder, backup in zip((data_dir / "backups", stick), newest, strict=True):
        assert sorted(p.name for p in folder.iterdir()) == [backup.name, backups.key_of(backup).name]


def test_a_key_set_in_the_environment_is_not_copied_onto_the_stick(data_dir, monkeypatch):
    monkeypatch.setenv("SECRET_KEY", KEY)
    (made,) = backups.make_backup().made
    assert not backups.key_of(made).exists()


@pytest.mark.parametrize(
    "full",
    [sqlite3.OperationalError("database or disk is full"), OSError(errno.ENOSPC, "No space left on device")],
)
def test_a_full_disk_is_said_on_the_dashboard_as_the_last_attempt(data_dir, monkeypatch, full):
    good = backups.make_backup(now=timezone.now() - timedelta(minutes=5))

    def no_room(target):
        raise full

    monkeypatch.setattr(backups, "_sqlite_copy", no_room)
    monkeypatch.setattr(backups, "_postgres_copy", no_room)
    result = backups.make_backup()
    (problem,) = result.problems
    assert result.made == []
    assert problem == (
        f"Backup not written to {data_dir / 'backups'}: the disk is full. Free space on that disk (delete old files)."
    )
    status = backup_status.read(data_dir)
    assert status.problems == [problem] and status.attempted_at > status.made_at
    assert status.places == [str(good.made[0])]  # the last good one is still named
    assert not [p for p in (data_dir / "backups").iterdir() if p.name.startswith(".")]  # no half file


def test_the_background_maker_says_a_full_disk_in_one_line(data_dir, monkeypatch, caplog):
    def no_room(target):
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(backups, "_sqlite_copy", no_room)
    monkeypatch.setattr(backups, "_postgres_copy", no_room)
    maker = backups.start_background(every_minutes=0.0005, keep=2)
    try:
        assert maker.wait_for(1, timeout=60)
    finally:
        maker.stop()
    lines = [r for r in caplog.records if r.name == "core.backups"]
    assert lines and all(r.levelno == logging.WARNING and r.exc_info is None for r in lines)
    assert "the disk is full" in lines[0].getMessage()


def test_the_command_fails_when_the_named_usb_folder_got_no_copy(data_dir, tmp_path, monkeypatch):
    monkeypatch.setenv(backups.SECOND_DIR_ENV, str(tmp_path / "pulled-out"))
    out, err = io.StringIO(), io.StringIO()
    with pytest.raises(CommandError, match=r"^No backup was written to .*pulled-out \(SKAT_OFFICE_BACKUP_DIR\)\.$"):
        call_command("backup", stdout=out, stderr=err)
    assert out.getvalue().startswith(f"Backup written: {data_dir / 'backups'}")
    assert "Is the USB stick plugged in?" in err.getvalue()


def test_a_disk_too_full_for_a_new_record_still_gets_the_full_disk_said(data_dir, monkeypatch):
    """No room for the record's new file either: the record is rewritten where it lies."""
    backups.make_backup(now=timezone.now() - timedelta(minutes=5))

    def no_room(*args):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(backups, "_sqlite_copy", no_room)
    monkeypatch.setattr(backups, "_postgres_copy", no_room)
    monkeypatch.setattr(backup_status, "write", no_room)
    result = backups.make_backup()
    assert len(result.problems) == 1 and "the disk is full" in result.problems[0]
    assert backup_status.read(data_dir).problems == result.problems
