"""The last backup's record: when it was made and where, for the dashboard to say.

``core.backups`` writes it after every attempt; the dashboard (below office in the
layers) only reads it, through this module. It is a small JSON file in the data
directory, not a row in the database: a row would be copied into the very backup it
describes, and a restored evening would then show the old record as the latest.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from datetime import datetime
from pathlib import Path

from core.files import write_atomic

FILE_NAME = "backup-status.json"


@dataclass(frozen=True, slots=True)
class BackupStatus:
    #: When the last backup was made (aware), or None if none was made yet.
    made_at: datetime | None = None
    #: The files the last backup was written to: the data directory's, the second folder's.
    places: list[str] = field(default_factory=list)
    #: When the last attempt ran, and what went wrong then (one line each).
    attempted_at: datetime | None = None
    problems: list[str] = field(default_factory=list)

    def to_json(self) -> str:
        data = asdict(self)
        for key in ("made_at", "attempted_at"):
            data[key] = data[key].isoformat() if data[key] else None
        return json.dumps(data, ensure_ascii=False, indent=1)


def path(data_dir: Path) -> Path:
    return Path(data_dir) / FILE_NAME


def _when(value: object) -> datetime | None:
    try:
        return datetime.fromisoformat(value) if isinstance(value, str) else None
    except ValueError:
        return None


def read(data_dir: Path) -> BackupStatus | None:
    """The record in ``data_dir``, or None when there is none or it cannot be read."""
    try:
        data = json.loads(path(data_dir).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict):
        return None
    return BackupStatus(
        made_at=_when(data.get("made_at")),
        places=_texts(data.get("places")),
        attempted_at=_when(data.get("attempted_at")),
        problems=_texts(data.get("problems")),
    )


def _texts(value: object) -> list[str]:
    """A list of texts as written, or nothing: a number or a list inside is no place or problem."""
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        return list(value)
    return []


def write(data_dir: Path, status: BackupStatus) -> None:
    """Replace the record at once and durably (core.files.write_atomic: a reader, or a start
    after a power cut, never sees half a file). Raises OSError."""
    write_atomic(path(data_dir), status.to_json())
