"""core.backups and `manage.py backup`: a consistent copy into the data directory and a
second folder, the last K kept, a pulled USB stick or an unwritable folder one line
each while the evening goes on, and the background maker of the serving office."""

from __future__ import annotations

import io
import sqlite3
from datetime import timedelta
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import override_settings
from django.utils import timezone

from core import backup_status, backups
from dashboard.signals import series_finished
from tests import factories
from tournaments.models import Series

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def data_dir(tmp_path, monkeypatch):
    monkeypatch.delenv(backups.SECOND_DIR_ENV, raising=False)
    with override_settings(DATA_DIR=tmp_path / "data"):
        (tmp_path / "data").mkdir()
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
    monkeypatch.setattr(backups.shutil, "which", lambda name: None)
    monkeypatch.setattr(backups.glob, "glob", lambda pattern: [])
    with pytest.raises(backups.BackupError, match="pg_dump was not found: install PostgreSQL's client programs"):
        backups.find_postgres_tool("pg_dump")
