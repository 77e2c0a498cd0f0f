"""The last backup's record is written whole and flushed to the disk: after a power cut the
dashboard reads the old record or the new, never an empty file."""

from __future__ import annotations

from datetime import UTC, datetime

from core import backup_status
from tests import durable


def test_the_record_is_flushed_with_its_folder_and_leaves_no_temporary_file(tmp_path, monkeypatch):
    flushed = durable.watch(monkeypatch)
    made = datetime(2026, 11, 26, 20, 55, tzinfo=UTC)
    backup_status.write(tmp_path, backup_status.BackupStatus(made_at=made, places=["/data/b.sqlite3"]))
    assert backup_status.path(tmp_path) in flushed and tmp_path in flushed
    assert backup_status.read(tmp_path).made_at == made
    assert [p.name for p in tmp_path.iterdir()] == [backup_status.FILE_NAME]
