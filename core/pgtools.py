"""PostgreSQL's client programs for the backups and the restore: where ``pg_dump`` and
``pg_restore`` are, how they reach the configured database, and one line when they fail.
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess

from django.conf import settings


class BackupError(Exception):
    """Why a backup or a restore could not be made, in one line that says what to do."""


def find_postgres_tool(name: str) -> str:
    """``pg_dump``/``pg_restore``: on the PATH, else in PostgreSQL's usual folders."""
    found = shutil.which(name)
    if found:
        return found
    patterns = [
        f"/usr/lib/postgresql/*/bin/{name}",
        f"/Library/PostgreSQL/*/bin/{name}",
        f"/Applications/Postgres.app/Contents/Versions/*/bin/{name}",
        f"/opt/homebrew/opt/postgresql*/bin/{name}",
        f"C:/Program Files/PostgreSQL/*/bin/{name}.exe",
    ]
    candidates = sorted((c for pattern in patterns for c in glob.glob(pattern)), reverse=True)
    if not candidates:
        raise BackupError(
            f"{name} was not found: install PostgreSQL's client programs (Debian: apt-get install "
            f"postgresql-client; Windows/macOS: the PostgreSQL installer) or put {name} on the PATH."
        )
    return candidates[0]


def postgres_args() -> tuple[list[str], dict[str, str]]:
    db = settings.DATABASES["default"]
    args = []
    for option, key in (("--host", "HOST"), ("--port", "PORT"), ("--username", "USER")):
        if db.get(key):
            args += [option, str(db[key])]
    env = dict(os.environ)
    if db.get("PASSWORD"):
        env["PGPASSWORD"] = str(db["PASSWORD"])
    return [*args, "--dbname", str(db["NAME"])], env


def run(argv: list[str], env: dict[str, str], what: str) -> None:
    try:
        done = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=900, check=False)
    except (OSError, subprocess.TimeoutExpired) as error:
        raise BackupError(f"{what} failed: {error}") from error
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no message"])[-1]
        raise BackupError(f"{what} failed: {last}")
