"""A laptop that dies at 22:00 keeps the evening up to its last backup.

A real server (its own process and SQLite database in a data directory) takes deals
from phones over loopback HTTP; `manage.py backup` runs while they keep entering; the
server is killed (SIGKILL, no shutdown) in the middle of the entries; the last backup is
restored into a fresh data directory with `manage.py restore`, and every deal the
phones saw confirmed before that backup began is there.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection

from core import backups
from perf.client import LOOPBACK, request, run_loop
from perf.fixtures import entry_data
from perf.server import free_port

pytestmark = pytest.mark.skipif(
    not settings.DATABASES["default"]["ENGINE"].endswith("sqlite3"),
    reason="the evening's server runs on its own SQLite file; the PostgreSQL pass adds nothing here",
)

CLIENT_ID = re.compile(rb'name="client_id" value="([0-9a-f-]{36})"')
CSRF = re.compile(rb'name="csrfmiddlewaretoken" value="([^"]+)"')
COOKIE = re.compile(r"csrftoken=([^;]+)")
SETUP = """
import json, django
django.setup()
from perf.fixtures import build
t = build(8, 1, log=lambda *a: None, open_last=True)
tables = t.series.get().tables.all()
print(json.dumps([{"id": x.pk, "url": x.entry_url(), "size": x.size} for x in tables]))
"""


def office_env(data: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in {"SKAT_OFFICE_BACKUP_DIR", "CACHE_DIR", "SECRET_KEY_FILE"}}
    return env | {
        "DATABASE_URL": f"sqlite:///{data / 'db.sqlite3'}",
        "SKAT_OFFICE_DATA": str(data),
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DEBUG": "1",
        "OFFICE_URL": "http://127.0.0.1:8000",
    }


def manage(env: dict[str, str], *args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    command = [sys.executable, "manage.py", *args]
    return subprocess.run(command, cwd=settings.BASE_DIR, env=env, capture_output=True, text=True, input=stdin)


class Phone:
    """One table's scorekeeper: the table link's form, one deal after another."""

    def __init__(self, port: int, table: dict) -> None:
        self.port, self.table, self.body, self.headers = port, table, b"", {}

    async def open(self) -> None:
        page = await request(self.port, "GET", self.table["url"])
        cookie = COOKIE.search(page.headers.get("set-cookie", ""))
        self.headers = {"Cookie": f"csrftoken={cookie.group(1)}", "HX-Request": "true"}
        self.body = page.body

    async def enter(self, number: int, rng) -> bool:
        from office.demo import random_game

        form = entry_data(random_game(rng, number, self.table["size"]))
        form["client_id"] = CLIENT_ID.search(self.body).group(1).decode()
        form["csrfmiddlewaretoken"] = CSRF.search(self.body).group(1).decode()
        answer = await request(self.port, "POST", self.table["url"], form=form, headers=self.headers)
        if answer.status == 200 and f"Deal {number} entered".encode() in answer.body:
            self.body = answer.body
            return True
        raise AssertionError(f"deal {number} of table {self.table['id']} answered {answer.status}")


@pytest.mark.django_db
def test_a_killed_server_is_restored_with_every_deal_confirmed_before_the_last_backup(tmp_path):
    evening, fresh = tmp_path / "evening", tmp_path / "fresh"
    evening.mkdir()
    # The tests' migrated, empty database as the evening's start (migrating anew takes 15 s).
    with (
        sqlite3.connect(connection.settings_dict["NAME"]) as source,
        sqlite3.connect(evening / "db.sqlite3") as db,
    ):
        source.backup(db)
    env = office_env(evening)
    setup = subprocess.run(
        [sys.executable, "-c", SETUP], cwd=settings.BASE_DIR, env=env, capture_output=True, text=True
    )
    assert setup.returncode == 0, setup.stderr
    tables = json.loads(setup.stdout.strip().splitlines()[-1])
    # Another worker's open connection, as in the hall: the write-ahead log stays in use
    # (no connection closing last folds it into the file), so a copy of db.sqlite3 by hand
    # would miss the latest deals; the backup API does not.
    worker = sqlite3.connect(evening / "db.sqlite3")
    worker.execute("SELECT count(*) FROM scoring_game").fetchone()
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "manage.py", "runserver", f"{LOOPBACK}:{port}", "--noreload", "--skip-checks"],
        cwd=settings.BASE_DIR,
        env=env | {"PYTHONUNBUFFERED": "1"},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        for line in server.stdout:  # blocks until the server says it listens
            if "Quit the server with" in line:
                break
        confirmed, before_backup = run_loop(evening_until_killed(port, tables, env, server))
    finally:
        server.kill()
        server.wait()
        worker.close()
    assert server.returncode == -signal.SIGKILL
    assert len(before_backup) == 2 * len(tables) and len(confirmed) > len(before_backup)

    latest = backups.listed(evening / "backups")[-1]
    restored = manage(office_env(fresh), "restore", str(latest), "--no-input")
    assert restored.returncode == 0, restored.stderr
    assert "Restored" in restored.stdout and "saved in" not in restored.stdout  # nothing to save in a fresh folder
    with sqlite3.connect(fresh / "db.sqlite3") as db:
        kept = set(db.execute("SELECT table_id, number FROM scoring_game"))
    assert before_backup <= kept

    # Once more over the restored evening: the database in use is saved first.
    again = manage(office_env(fresh), "restore", str(latest), "--no-input")
    assert again.returncode == 0 and "saved in" in again.stdout
    assert [p for p in backups.listed(fresh / "backups") if backups.BEFORE_RESTORE in p.name]


async def evening_until_killed(port: int, tables: list[dict], env: dict[str, str], server) -> tuple[set, set]:
    """Two deals at every table, then the backup while the phones go on, then the kill."""
    import random

    rng = random.Random(25)
    phones = [Phone(port, t) for t in tables]
    await asyncio.gather(*(p.open() for p in phones))
    confirmed: set[tuple[int, int]] = set()

    async def deals(phone: Phone, numbers: range, after_backup: asyncio.Event | None = None) -> None:
        for number in numbers:
            try:
                await phone.enter(number, rng)
            except OSError:
                return  # the server is gone
            confirmed.add((phone.table["id"], number))
            if after_backup is not None and backup_done.is_set():
                after_backup.set()

    await asyncio.gather(*(deals(p, range(1, 3)) for p in phones))
    before_backup = set(confirmed)
    backup_done, entered_after = asyncio.Event(), asyncio.Event()

    async def go_on(phone: Phone) -> None:
        await deals(phone, range(3, 4))  # while the backup runs: in it or not
        await backup_done.wait()
        await deals(phone, range(4, 30), entered_after)

    entering = [asyncio.create_task(go_on(p)) for p in phones]
    made = await asyncio.to_thread(manage, env, "backup")
    assert made.returncode == 0, made.stderr
    backup_done.set()
    # At least one more deal confirmed after the backup: the kill comes in the middle of entries.
    await asyncio.wait_for(entered_after.wait(), timeout=300)
    server.send_signal(signal.SIGKILL)
    await asyncio.gather(*entering, return_exceptions=True)
    return confirmed, before_backup
