"""Serving the hall: gunicorn with the production settings, on the laptop's network.

``manage.py serve`` (``make run``) puts these together: the address phones use (from
``OFFICE_URL`` or the interfaces, ``config.hall``), the environment gunicorn's workers
read their settings from (DEBUG off; plain HTTP unless ``SECURE=1``; the secret key
file), the static files collected for whitenoise, and gunicorn itself in place of the
command's process, so Ctrl-C stops it.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys

import segno
from django.conf import settings
from django.utils import translation

from config import hall


def hall_url(port: int) -> tuple[str, hall.HallAddress | None]:
    """The office's address: ``OFFICE_URL`` as set (and None), or the detected one."""
    configured = os.environ.get("OFFICE_URL", "").strip().rstrip("/")
    if configured:
        return configured, None
    found = hall.detect()
    return hall.office_url(found.host, port), found


def server_env(office_url: str, port: int) -> dict[str, str]:
    """What gunicorn's workers read their settings from: a production server (DEBUG
    off), the hall's plain HTTP unless ``SECURE=1`` is set (a league server behind
    HTTPS), the secret key from the environment or from the key file."""
    env = os.environ | {
        "DEBUG": "0",
        "SECURE": os.environ.get("SECURE", "0"),
        "OFFICE_URL": office_url,
        "PORT": str(port),
        "DJANGO_SETTINGS_MODULE": "config.settings",
    }
    if not os.environ.get("SECRET_KEY", "").strip():
        hall.ensure_secret_key(settings.SECRET_KEY_FILE)
        env["SECRET_KEY_FILE"] = str(settings.SECRET_KEY_FILE)
    return env


def default_workers() -> int:
    """One gunicorn worker per core, two to four: a laptop has both to spare."""
    return max(2, min(4, os.cpu_count() or 1))


def gunicorn_argv(bind: str, port: int, workers: int, threads: int) -> list[str]:
    return [
        sys.executable,
        "-m",
        "gunicorn",
        "config.wsgi:application",
        "--bind",
        f"{bind}:{port}",
        "--workers",
        str(workers),
        "--threads",
        str(threads),
        "--worker-class",
        "gthread",
        "--timeout",
        "60",
        "--graceful-timeout",
        "5",
        "--log-level",
        "warning",
    ]


def collect_static(env: dict[str, str]) -> None:
    """The static files for whitenoise, with the hashed names DEBUG off serves."""
    command = [sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"]
    subprocess.run(command, cwd=settings.BASE_DIR, env=env, check=True)


def exec_server(argv: list[str], env: dict[str, str]) -> None:  # pragma: no cover - replaces the process
    """gunicorn in place of this process: its signals (Ctrl-C) stop the office."""
    os.chdir(settings.BASE_DIR)
    sys.stdout.flush()
    sys.stderr.flush()
    os.execve(argv[0], argv, env)


def terminal_qr(url: str) -> str:
    """``url`` as a QR code drawn with characters, for a phone to scan off the screen."""
    drawing = io.StringIO()
    segno.make(url, error="m").terminal(out=drawing, compact=True)
    return drawing.getvalue()


def terminal_language() -> str:
    """The terminal's language (``LANG=de_DE.UTF-8``: German), else English."""
    locale = os.environ.get("LC_ALL") or os.environ.get("LC_MESSAGES") or os.environ.get("LANG") or ""
    try:
        return translation.get_supported_language_variant(translation.to_language(locale.split(".")[0]))
    except LookupError:
        return "en"
