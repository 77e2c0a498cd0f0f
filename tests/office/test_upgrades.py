"""An older office refuses a database a newer one migrated; each start records the version that migrated."""

from __future__ import annotations

import io
import os
import socket
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.db.migrations.recorder import MigrationRecorder

from office import upgrades
from skat import __version__
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def applied_by_a_newer_office(*names: str) -> None:
    recorder = MigrationRecorder(connection)
    for name in names:
        app, _, migration = name.partition(".")
        recorder.record_applied(app, migration)


def test_a_database_of_this_code_is_served():
    assert upgrades.unknown_migrations() == []
    assert upgrades.refusal(Path("/nonexistent")) is None


def test_a_migration_this_code_does_not_know_refuses_naming_it_and_the_version_to_install(tmp_path):
    applied_by_a_newer_office("seasons.0042_promotion_play_offs")
    assert upgrades.unknown_migrations() == ["seasons.0042_promotion_play_offs"]
    assert upgrades.refusal(tmp_path) == (
        "This database was used by a newer version of the office (migration seasons.0042_promotion_play_offs "
        f"unknown to version {__version__}): install a newer version of the office, or start with another "
        "--data-dir."
    )
    upgrades.record_version(tmp_path, "0.4.dev1000+gabcdef")
    applied_by_a_newer_office("rankings.0031_x", "auth.0013_y", "newapp.0001_initial")
    line = upgrades.refusal(tmp_path)
    assert "(migrations auth.0013_y, newapp.0001_initial, rankings.0031_x and 1 more unknown" in line
    assert "install version 0.4.dev1000+gabcdef or newer of the office" in line and "\n" not in line


def test_serve_refuses_before_it_migrates_or_writes_anything(settings, tmp_path):
    settings.DATA_DIR = tmp_path
    applied_by_a_newer_office("seasons.0042_promotion_play_offs")
    with pytest.raises(CommandError, match=r"^This database was used by a newer version of the office"):
        call_command("serve", "--no-input", "--bind", "127.0.0.1", stdout=io.StringIO(), stderr=io.StringIO())
    assert not Tournament.objects.exists() and not (tmp_path / upgrades.VERSION_FILE).exists()


def test_a_start_that_migrates_records_its_version(settings, tmp_path):
    settings.DATA_DIR = tmp_path
    upgrades.migrate(tmp_path)  # nothing to apply in the test database, but none recorded yet
    assert upgrades.recorded_version(tmp_path) == __version__
    upgrades.record_version(tmp_path, "0.3.dev5+gold")
    upgrades.migrate(tmp_path)  # nothing applied: the record stays the one that last migrated
    assert upgrades.recorded_version(tmp_path) == "0.3.dev5+gold"
    ran = []
    upgrades.migrate(tmp_path, run=lambda: ran.append("migrate"))  # the start's own way to migrate
    assert ran == ["migrate"] and upgrades.recorded_version(tmp_path) == "0.3.dev5+gold"
    upgrades.migrate(tmp_path, run=lambda: MigrationRecorder(connection).record_applied("seasons", "0001_x"))
    assert upgrades.recorded_version(tmp_path) == __version__  # it applied one: this version migrated it


def test_the_entry_point_refuses_with_one_line_and_exits_non_zero(tmp_path):
    """`manage.py serve` (as skat-office serve) on a data folder whose database a newer office migrated."""
    root = Path(__file__).resolve().parents[2]
    with sqlite3.connect(tmp_path / "db.sqlite3") as database:
        database.execute(
            "CREATE TABLE django_migrations (id integer PRIMARY KEY AUTOINCREMENT, app varchar(255) NOT NULL, "
            "name varchar(255) NOT NULL, applied datetime NOT NULL)"
        )
        database.execute(
            "INSERT INTO django_migrations (app, name, applied) VALUES ('seasons', '0042_future', '2027-01-01')"
        )
    (tmp_path / upgrades.VERSION_FILE).write_text("0.4.0\n")
    env = {k: v for k, v in os.environ.items() if k not in ("DJANGO_SETTINGS_MODULE", "DATABASE_URL", "DEBUG")}
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        port = str(free.getsockname()[1])
    command = [sys.executable, "manage.py", "serve", "--no-input", "--bind", "127.0.0.1", "--port", port]
    done = subprocess.run(
        [*command, "--data-dir", str(tmp_path)],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert done.stderr.strip() == (
        "CommandError: This database was used by a newer version of the office (migration seasons.0042_future "
        f"unknown to version {__version__}): install version 0.4.0 or newer of the office, or start with another "
        "--data-dir."
    )
