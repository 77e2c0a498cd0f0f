"""A WSGI server serving the office for the load test, on a loopback address only, against a scratch database.

``waitress`` is the office's own (office.serve and office.workers, as ``skat-office serve``
runs it, started through :mod:`perf.serving`); ``gunicorn``, ``granian`` and
``hypercorn`` are the candidates it was measured against, each with ``workers``
processes of ``threads`` threads.
"""

from __future__ import annotations

import ipaddress
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import weakref
from pathlib import Path

from django.conf import settings

from office.serve import SERVERS, gunicorn_argv

from .client import LOOPBACK
from .quota import postgres
from .quota.cgroups import CpuQuota
from .timing import Log


def free_port(host: str = LOOPBACK) -> int:
    with socket.socket() as probe:
        probe.bind((host, 0))
        return probe.getsockname()[1]


def server_argv(name: str, host: str, port: int, workers: int, threads: int) -> list[str]:
    """The command line serving the office with ``name`` (office.serve.SERVERS), a long listen backlog each."""
    if name == "waitress":  # the office's own: its processes share one socket (office.workers)
        return [sys.executable, "-m", "perf.serving", host, str(port), str(threads), str(workers)]
    if name == "gunicorn":
        return [*gunicorn_argv(host, port, workers, threads), "--backlog", "2048"]
    if name == "granian":
        return [
            *(sys.executable, "-m", "granian", "--interface", "wsgi", "--host", host, "--port", str(port)),
            *("--workers", str(workers), "--blocking-threads", str(threads), "--backlog", "2048"),
            *("--log-level", "warning", "--no-ws", "config.wsgi:application"),
        ]
    if name == "hypercorn":
        return [
            *(sys.executable, "-m", "hypercorn", "--bind", f"{host}:{port}", "--workers", str(workers)),
            *("--backlog", "2048", "--log-level", "warning", "config.wsgi:application"),
        ]
    raise ValueError(f"unknown server {name!r}: one of {', '.join(SERVERS)}")


def describe(name: str, workers: int, threads: int) -> str:
    if name == "waitress":
        return f"waitress, {workers} process(es) x {threads} thread(s) (as skat-office serve)"
    if name == "hypercorn":
        return f"hypercorn, {workers} worker(s) (WSGI in its thread pool)"
    return f"{name}, {workers} worker(s) x {threads} thread(s)"


def discard(data_dir: str, logfile: str) -> None:
    """Remove a load test server's throwaway data folder and its log."""
    shutil.rmtree(data_dir, ignore_errors=True)
    Path(logfile).unlink(missing_ok=True)


class Server:
    """A WSGI server serving the office on one loopback address only, against the scratch database.

    ``waitress`` serves as ``skat-office serve`` does (office.serve); the others are
    started with their own command lines (:func:`server_argv`). With ``cpu_quota`` the
    server starts inside that cgroup, and every process it forks or spawns with it, and a
    PostgreSQL server of this machine lends it the backends of its database while it runs
    (:mod:`perf.quota.postgres`).
    """

    def __init__(
        self,
        database_url: str,
        workers: int,
        threads: int,
        log: Log,
        host: str = LOOPBACK,
        *,
        cache_dir: str,
        server: str = "waitress",
        cpu_quota: CpuQuota | None = None,
    ) -> None:
        if not ipaddress.ip_address(host).is_loopback:
            raise ValueError(f"the load test serves on loopback addresses only, not {host}")
        self.host = host
        self.port = free_port(host)
        self.log = log
        self.logfile = tempfile.NamedTemporaryFile(prefix="skat-loadtest-", suffix=".log", delete=False)  # noqa: SIM115
        # Its own data directory: serve's backups of the throwaway database (and their
        # report) must never land beside the office's own, pushing real ones out.
        self.data_dir = tempfile.mkdtemp(prefix="skat-loadtest-data-")
        # Both removed by __exit__, or when a Server never started is dropped (perf.seats
        # makes one before its tournament, whose setup may fail).
        self._discard = weakref.finalize(self, discard, self.data_dir, self.logfile.name)
        self.env = os.environ | {
            "SKAT_OFFICE_DATA": self.data_dir,
            "SKAT_OFFICE_BACKUP_DIR": "",
            # Collected as the office's own; a test run names a folder of its own in the
            # environment (tests/conftest.py), which its settings, loaded before, do not show.
            "STATIC_ROOT": os.environ.get("STATIC_ROOT") or str(settings.STATIC_ROOT),
            "DATABASE_URL": database_url,
            # The scratch database's URL is whole: never the office's own password beside it
            # (a container's DATABASE_PASSWORD_FILE, config.database).
            "DATABASE_PASSWORD": "",
            "DATABASE_PASSWORD_FILE": "",
            # The scratch standings cache, never the office's own (perf.scratch).
            "CACHE_DIR": cache_dir,
            "DEBUG": "0",
            "SECURE": "0",
            "ALLOWED_HOSTS": host,
            "OFFICE_URL": f"http://{host}:{self.port}",
            "PORT": str(self.port),
            "SECRET_KEY": "loadtest-" + secrets.token_urlsafe(32),
            "DJANGO_SETTINGS_MODULE": "config.settings",
        }
        self.name = server
        self.command = server_argv(server, host, self.port, workers, threads)
        self.cpu_quota = cpu_quota
        self.process: subprocess.Popen | None = None
        self.database: postgres.Backends | None = None

    def __enter__(self) -> Server:
        try:
            return self.start()
        except BaseException:
            self.__exit__()  # a with block's __exit__ is not called when __enter__ fails
            raise

    def start(self) -> Server:
        # DEBUG=0 serves hashed static names: collect them as a deployment does (staticfiles/).
        # Through the installed command's module, not manage.py: an installed office has none.
        subprocess.run(
            [sys.executable, "-m", "office.cli", "collectstatic", "--noinput", "-v", "0"],
            cwd=settings.BASE_DIR,
            env=self.env,
            check=True,
        )
        command = self.cpu_quota.wrap(self.command) if self.cpu_quota else self.command
        self.process = subprocess.Popen(
            command, cwd=settings.BASE_DIR, env=self.env, stdout=self.logfile, stderr=subprocess.STDOUT
        )
        self.database = postgres.watch(self.cpu_quota, self.env["DATABASE_URL"])
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"{self.name} stopped: {self.output()}")
            try:
                with socket.create_connection((self.host, self.port), timeout=0.5):
                    return self
            except OSError:
                time.sleep(0.2)
        raise RuntimeError(f"{self.name} did not start within 30 s")

    def output(self) -> str:
        return Path(self.logfile.name).read_text(errors="replace")[-3000:]

    def __exit__(self, *_exc) -> None:
        if self.process is not None and self.process.poll() is None:
            if self.cpu_quota:  # all its workers are up by now: each must be in the group
                self.cpu_quota.check(self.process.pid)
            self.process.send_signal(signal.SIGINT if self.name == "waitress" else signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if self.database is not None:  # its backends back in their own groups
            self.database.stop()
        if self.cpu_quota and self.process is not None:
            self.cpu_quota.settle()
        self.logfile.close()
        if os.environ.get("LOADTEST_KEEP_SERVER_LOG") and Path(self.logfile.name).exists():  # for looking into a run
            Path(self.logfile.name).replace(os.environ["LOADTEST_KEEP_SERVER_LOG"])
        self._discard()
