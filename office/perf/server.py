"""gunicorn serving the office for the load test, on loopback only, against a scratch database."""

from __future__ import annotations

import os
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from django.conf import settings

from .client import LOOPBACK
from .timing import Log


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((LOOPBACK, 0))
        return probe.getsockname()[1]


class Server:
    """gunicorn serving the office on 127.0.0.1 only, against the scratch database."""

    def __init__(self, database_url: str, workers: int, threads: int, log: Log) -> None:
        self.port = free_port()
        self.log = log
        self.logfile = tempfile.NamedTemporaryFile(prefix="skat-loadtest-", suffix=".log", delete=False)  # noqa: SIM115
        self.env = os.environ | {
            "DATABASE_URL": database_url,
            "DEBUG": "0",
            "SECURE": "0",
            "ALLOWED_HOSTS": LOOPBACK,
            "SECRET_KEY": "loadtest-" + secrets.token_urlsafe(32),
            "DJANGO_SETTINGS_MODULE": "config.settings",
        }
        self.command = [
            sys.executable,
            "-m",
            "gunicorn",
            "config.wsgi:application",
            "--bind",
            f"{LOOPBACK}:{self.port}",
            "--workers",
            str(workers),
            "--threads",
            str(threads),
            "--worker-class",
            "gthread" if threads > 1 else "sync",
            "--backlog",
            "2048",
            "--timeout",
            "60",
            "--graceful-timeout",
            "5",
            "--log-level",
            "warning",
        ]
        self.process: subprocess.Popen | None = None

    def __enter__(self) -> Server:
        # DEBUG=0 serves hashed static names: collect them as a deployment does (staticfiles/).
        subprocess.run(
            [sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"],
            cwd=settings.BASE_DIR,
            env=self.env,
            check=True,
        )
        self.process = subprocess.Popen(
            self.command, cwd=settings.BASE_DIR, env=self.env, stdout=self.logfile, stderr=subprocess.STDOUT
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"gunicorn stopped: {self.output()}")
            try:
                with socket.create_connection((LOOPBACK, self.port), timeout=0.5):
                    return self
            except OSError:
                time.sleep(0.2)
        self.__exit__()
        raise RuntimeError("gunicorn did not start within 30 s")

    def output(self) -> str:
        return Path(self.logfile.name).read_text(errors="replace")[-3000:]

    def __exit__(self, *_exc) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.logfile.close()
        Path(self.logfile.name).unlink(missing_ok=True)
