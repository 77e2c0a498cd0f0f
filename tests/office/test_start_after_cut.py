"""A start after a power cut: the real `manage.py serve` in a process of its own, killed
(SIGKILL: no shutdown, as a cut) and started again on what the cut may leave behind.

- An empty staticfiles.json and an empty secret key file: the office serves again, its
  static files rebuilt, and says in one line that a new key was made.
- A second serve on the same data folder while the first serves: refused in one line
  naming who holds the folder.
- A database file whose first 100 bytes were overwritten: one line naming what is wrong,
  the file and the restore command of the newest backup, no traceback.
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import threading
import urllib.request
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection

from core import backups, datalock
from perf.client import LOOPBACK
from perf.server import free_port
from tests.office.test_backup_after_kill import manage, office_env

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(
        not settings.DATABASES["default"]["ENGINE"].endswith("sqlite3"),
        reason="the office's own SQLite file in its data folder; the PostgreSQL pass adds nothing here",
    ),
    pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="a cut is SIGKILL"),
]

READY = "Stop the office with Ctrl-C."


def serve_env(data: Path) -> dict[str, str]:
    env = {k: v for k, v in office_env(data).items() if k not in {"SECRET_KEY", "DEBUG"}}
    return env | {"STATIC_ROOT": str(data / "staticfiles"), "PYTHONUNBUFFERED": "1", "LANG": "C"}


def serve_argv(port: int) -> list[str]:
    argv = ["--bind", LOOPBACK, "--port", str(port), "--processes", "1", "--threads", "2", "--no-input", "--no-demo"]
    return [sys.executable, "manage.py", "serve", *argv]


class Office:
    """`manage.py serve` running until :meth:`cut`; its output (stdout and stderr) in ``lines``."""

    def __init__(self, data: Path) -> None:
        self.port = free_port()
        self.lines: list[str] = []
        self.ready = threading.Event()
        self.process = subprocess.Popen(
            serve_argv(self.port),
            cwd=settings.BASE_DIR,
            env=serve_env(data),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        threading.Thread(target=self._read, daemon=True).start()
        if not self.ready.wait(180):
            self.cut()
            pytest.fail("serve did not start:\n" + "".join(self.lines))

    def _read(self) -> None:
        for line in self.process.stdout:
            self.lines.append(line)
            if READY in line:
                self.ready.set()
        self.ready.set()  # ended: the wait above sees what it said

    def get(self, path: str) -> tuple[int, bytes]:
        with urllib.request.urlopen(f"http://{LOOPBACK}:{self.port}{path}", timeout=30) as answer:
            return answer.status, answer.read()

    def cut(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(30)


def refused(data: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        serve_argv(free_port()),
        cwd=settings.BASE_DIR,
        env=serve_env(data),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=180,
    )


def test_a_start_cut_short_serves_again_and_a_second_office_or_a_damaged_database_is_refused(tmp_path):
    data = tmp_path / "evening"
    data.mkdir()
    # The tests' migrated, empty database as the evening's start (migrating anew takes 15 s).
    with sqlite3.connect(connection.settings_dict["NAME"]) as source, sqlite3.connect(data / "db.sqlite3") as db:
        source.backup(db)

    office = Office(data)
    try:
        assert office.process.poll() is None, "".join(office.lines)
        assert office.get("/healthz")[0] == 200
        # A second office on the same folder, while the first serves.
        second = refused(data)
        assert second.returncode == 1 and "Traceback" not in second.stderr
        assert second.stderr.strip().count("\n") == 0
        assert second.stderr.startswith(f"CommandError: Another office uses the data folder {data} (serve pid ")
        assert f"pid {office.process.pid} " in second.stderr
    finally:
        office.cut()
    assert office.process.returncode == -signal.SIGKILL
    assert datalock.holder(data) is None  # the cut let go of the folder

    # What a cut during the start may leave: an empty manifest and an empty key file.
    key_file = data / "db.sqlite3.secret-key"
    old_key = key_file.read_text()
    (data / "staticfiles" / "staticfiles.json").write_bytes(b"")
    key_file.write_bytes(b"")
    office = Office(data)
    try:
        said = "".join(office.lines)
        assert office.process.poll() is None and "Traceback" not in said, said
        assert f"The secret key file {key_file} was empty or damaged: a new key was made" in said
        paths = json.loads((data / "staticfiles" / "staticfiles.json").read_text())["paths"]
        status, body = office.get(f"/static/{paths['css/office.css']}")
        assert status == 200 and body == (data / "staticfiles" / paths["css/office.css"]).read_bytes()
        assert office.get("/")[0] == 200  # the pages name the hashed files: the manifest is whole
    finally:
        office.cut()
    assert key_file.read_text() != old_key and len(key_file.read_text().strip()) >= 50

    # A backup, then the database's first 100 bytes overwritten.
    made = manage(office_env(data), "backup")
    assert made.returncode == 0, made.stderr
    newest = backups.listed(data / "backups")[-1]
    with open(data / "db.sqlite3", "r+b") as handle:
        handle.write(b"\xa5" * 100)
    damaged = refused(data)
    assert damaged.returncode == 1 and "Traceback" not in damaged.stderr, damaged.stderr
    assert damaged.stderr.strip().count("\n") == 0
    assert damaged.stderr.strip() == (
        f"CommandError: The database {data / 'db.sqlite3'} is damaged (file is not a database). "
        f'Restore the newest backup: skat-office restore "{newest}" --data-dir "{data}"'
    )
    assert os.path.getsize(data / "db.sqlite3") > 100  # refused, nothing changed
