"""The office on the simulated disk: the mount, ``manage.py serve`` in a process group, the kill and the cut.

One data folder (``disk/``, the simulated disk's content) is mounted at ``data/`` by
:mod:`perf.powercut.mount`; ``serve`` runs with ``SKAT_OFFICE_DATA`` there, on
127.0.0.1 only, in a session of its own, so that SIGKILL to its process group takes every
serving process at once, as a power cut does.
"""

from __future__ import annotations

import contextlib
import os
import selectors
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from django.conf import settings
from django.urls import reverse

from perf.client import LOOPBACK
from perf.server import free_port
from scoring.models import Game
from tournaments.models import Series, Table

from .phones import Table as PhoneTable

#: The environment of the run's own test or shell that must not reach the office: it keeps
#: everything (database, key, static files, cache) in the simulated data folder.
NOT_PASSED = (
    "STATIC_ROOT",
    "CACHE_DIR",
    "DATABASE_URL",
    "SECRET_KEY",
    "SECRET_KEY_FILE",
    "DEBUG",
    "OFFICE_URL",
    "PORT",
    "HOST",
    "ALLOWED_HOSTS",
)
KEY_FILE = "db.sqlite3.secret-key"
DATABASE = "db.sqlite3"


class Office:
    """A data folder on the simulated disk and the office serving it (see the module)."""

    def __init__(self, base: Path, *, processes: int, threads: int) -> None:
        self.base = base
        self.lower, self.mountpoint, self.store = base / "disk", base / "data", base / "cache"
        self.processes, self.threads = processes, threads
        self.disk: subprocess.Popen | None = None
        self.server: subprocess.Popen | None = None
        self.port = 0
        self.log = base / "serve.log"

    def fresh(self) -> None:
        """An empty data folder: the office's first start is yet to come."""
        shutil.rmtree(self.lower, ignore_errors=True)
        self.lower.mkdir(parents=True)
        self.mountpoint.mkdir(parents=True, exist_ok=True)

    def mount(self, *, names_at_once: bool) -> None:
        flag = ["--names-at-once"] if names_at_once else []
        argv = [sys.executable, "-m", "perf.powercut.mount", str(self.lower), str(self.mountpoint), str(self.store)]
        self.disk = subprocess.Popen(
            [*argv, *flag],
            cwd=settings.BASE_DIR,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        if self._line(self.disk, 30) != "mounted":
            self.disk.kill()
            raise RuntimeError(f"the simulated disk did not mount at {self.mountpoint}")

    def start(self, timeout: float = 300) -> str | None:
        """``serve`` on the mount; None once it listens, else why it did not start (the end of its output)."""
        self.port = free_port(LOOPBACK)
        env = {k: v for k, v in os.environ.items() if k not in NOT_PASSED} | {
            "SKAT_OFFICE_DATA": str(self.mountpoint),
            "SKAT_OFFICE_BACKUP_DIR": "",
            "OFFICE_URL": f"http://{LOOPBACK}:{self.port}",
        }
        argv = [sys.executable, "manage.py", "serve", "--bind", LOOPBACK, "--port", str(self.port), "--no-input"]
        argv += ["--processes", str(self.processes), "--threads", str(self.threads)]
        with self.log.open("ab") as log:
            self.server = subprocess.Popen(
                argv, cwd=settings.BASE_DIR, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
            )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.server.poll() is not None:
                return self.output()
            try:
                with socket_to(self.port):
                    return None
            except OSError:
                time.sleep(0.1)
        self.kill()
        return f"no answer within {timeout:g} s: {self.output()}"

    def output(self) -> str:
        return self.log.read_text(errors="replace")[-1500:] if self.log.exists() else ""

    def kill(self) -> None:
        """SIGKILL to every serving process at once (its process group)."""
        if self.server is not None:
            with contextlib.suppress(ProcessLookupError):  # gone already
                os.killpg(self.server.pid, signal.SIGKILL)
            self.server.wait()
            self._wait_for_group(self.server.pid)
            self.server = None

    def cut(self) -> None:
        """The power goes: the disk drops what was not synced and the mount is taken away."""
        assert self.disk is not None and self.disk.stdin is not None
        self.disk.stdin.write("cut\n")
        self.disk.stdin.flush()
        if self._line(self.disk, 30) != "cut":
            raise RuntimeError("the simulated disk did not take the cut")
        self.unmount()

    def unmount(self) -> None:
        """Take the mount away (after a cut the disk then writes what it keeps into ``disk/``).

        A program still holding a file there (never the killed office) keeps it busy: then
        it is detached lazily, and the disk's process stopped if it does not end.
        """
        if self.disk is None:
            return
        for attempt in range(25):
            lazy = ["-z"] if attempt == 24 else []
            done = subprocess.run(["fusermount3", "-u", *lazy, str(self.mountpoint)], capture_output=True)
            if done.returncode == 0:
                break
            time.sleep(0.2)
        self.disk.stdin.close()
        try:
            self.disk.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.disk.kill()
            self.disk.wait()
        self.disk = None

    def close(self) -> None:
        self.kill()
        self.unmount()

    # What the office holds ----------------------------------------------------------------

    def key(self, folder: Path | None = None) -> str:
        """The secret key file's content ("" if missing or empty) in ``folder`` (the mount)."""
        try:
            return ((folder or self.mountpoint) / KEY_FILE).read_text(encoding="utf-8").strip()
        except OSError:
            return ""

    def running_tables(self) -> list[PhoneTable]:
        """The tables of the running series, as the phones open them (read from the database file)."""
        query = (
            f"SELECT t.id, t.token, t.size FROM {Table._meta.db_table} t "
            f"JOIN {Series._meta.db_table} s ON t.series_id = s.id WHERE s.status = ? ORDER BY t.id"
        )
        with closing(self.mountpoint / DATABASE) as db:
            rows = db.execute(query, [Series.Status.RUNNING.value]).fetchall()
        return [PhoneTable(pk, reverse("table:sheet", args=[token]), size) for pk, token, size in rows]

    def deals_on_disk(self) -> set[tuple[int, int]] | str:
        """Every (table id, deal number) in the database the disk holds after the cut, or why none can be read."""
        path = self.lower / DATABASE
        if not path.exists():
            return "the database file is gone"
        try:
            with closing(path) as db:
                rows = db.execute(f"SELECT table_id, number FROM {Game._meta.db_table}").fetchall()
        except sqlite3.OperationalError as error:
            if "no such table" in str(error):  # the migrations never reached the disk: nothing is kept
                return set()
            return f"the database cannot be read: {error}"
        except sqlite3.DatabaseError as error:
            return f"the database cannot be read: {error}"
        return {(table, number) for table, number in rows}

    @staticmethod
    def _line(process: subprocess.Popen, timeout: float) -> str:
        with selectors.DefaultSelector() as selector:
            selector.register(process.stdout, selectors.EVENT_READ)
            if not selector.select(timeout):
                return ""
        return process.stdout.readline().strip()

    @staticmethod
    def _wait_for_group(pgid: int) -> None:
        """Until no process of the group is left (the spawned serving processes die with it)."""
        for _ in range(100):
            try:
                os.killpg(pgid, 0)
            except ProcessLookupError:
                return
            time.sleep(0.05)


class closing:
    """A SQLite connection to an existing file (never created), closed after the block."""

    def __init__(self, path: Path) -> None:
        self.connection = sqlite3.connect(f"file:{path}?mode=rw", uri=True, timeout=30)

    def __enter__(self) -> sqlite3.Connection:
        return self.connection

    def __exit__(self, *exc: object) -> None:
        self.connection.close()


def socket_to(port: int):
    import socket

    return socket.create_connection((LOOPBACK, port), timeout=0.5)
