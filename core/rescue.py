"""What a restore does around the database itself: a damaged database in use moved aside,
and the secret key that came with the backup put back.

A restore is most needed when the database in use is broken (a power cut on a disk that
lied about its writes, a stick pulled mid-copy): it cannot be copied as a safety copy, so
it is moved aside whole, with its write-ahead log, under a name that says what it is
(``db.sqlite3.damaged-2026-11-26_22-04-00``), for someone to look at later.

PINs and player links are derived from the secret key (``SECRET_KEY_FILE``); a backup
carries the key it was made with (``core.backups.key_of``), and putting it back keeps
every printed slip and card valid on the other laptop.
"""

from __future__ import annotations

import os
import sqlite3
from datetime import datetime
from pathlib import Path

from django.conf import settings
from django.utils import timezone

from core.backups import key_of
from core.files import write_atomic

SQLITE_HEADER = b"SQLite format 3\x00"
#: A key file larger than this did not come from the office.
KEY_MAX_BYTES = 4096
SIDE_FILES = ("-wal", "-shm", "-journal")


def damage(path: Path) -> str:
    """Why the SQLite database at ``path`` cannot be used, or "" when it reads whole
    (or is not there: nothing to rescue)."""
    try:
        with path.open("rb") as handle:
            head = handle.read(16)
    except FileNotFoundError:
        return ""
    except OSError as error:
        return f"it cannot be read ({error.strerror or error})"
    if not head:
        return ""
    if not head.startswith(SQLITE_HEADER):
        return "file is not a database"
    try:
        handle = sqlite3.connect(path, timeout=20)
    except sqlite3.Error as error:
        return str(error)
    try:
        found = [row[0] for row in handle.execute("PRAGMA quick_check(1)")]
    except sqlite3.Error as error:
        return str(error)
    finally:
        handle.close()
    return "" if found == ["ok"] else found[0]


def move_aside(path: Path, now: datetime | None = None) -> list[Path]:
    """``path`` and its -wal/-shm renamed to ``<name>.damaged-<time>`` (the log's name
    follows, so SQLite still opens them together); the key file is copied beside them."""
    stamp = timezone.localtime(now or timezone.now()).strftime("%Y-%m-%d_%H-%M-%S")
    aside = path.with_name(f"{path.name}.damaged-{stamp}")
    moved = []
    os.replace(path, aside)
    moved.append(aside)
    for side in SIDE_FILES:
        companion = path.with_name(path.name + side)
        if companion.exists():
            target = aside.with_name(aside.name + side)
            os.replace(companion, target)
            moved.append(target)
    key = _read_key(Path(settings.SECRET_KEY_FILE))
    if key:
        write_atomic(key_of(aside), key + "\n", private=True)
    return moved


def _read_key(path: Path) -> str:
    try:
        if path.stat().st_size > KEY_MAX_BYTES:
            return ""
        key = path.read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError):
        return ""
    return key if key.isprintable() and " " not in key else ""


def put_key_back(backup: Path) -> str:
    """The backup's secret key written as the office's key file; one line that says what
    happened to the key (and so to the PINs and player links)."""
    if os.environ.get("SECRET_KEY", "").strip():
        return "SECRET_KEY is set in the environment: no key file is written, PINs and player links follow that key."
    key = _read_key(key_of(backup))
    if not key:
        return (
            f"The backup carries no secret key ({key_of(backup).name} is missing): the office keeps its "
            "own. PINs and player links change if the backup was made under another key; then print the "
            "PIN slips and table cards again."
        )
    target = Path(settings.SECRET_KEY_FILE)
    try:
        write_atomic(target, key + "\n", private=True)
    except OSError as error:
        return (
            f"The backup's secret key could not be written to {target} ({error.strerror or error}): "
            f"copy {key_of(backup)} there by hand before the office starts, or PINs and player links change."
        )
    return f"The backup's secret key is back in {target}: PINs and player links stay as printed."
