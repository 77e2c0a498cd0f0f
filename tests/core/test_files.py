"""Files the office writes for itself: whole or not at all, flushed to the disk."""

import os
import stat

import pytest

from core import files


def test_write_atomic_replaces_the_content_whole(tmp_path):
    target = tmp_path / "status.json"
    target.write_text("old")
    files.write_atomic(target, "new")
    assert target.read_text() == "new"
    assert [p.name for p in tmp_path.iterdir()] == ["status.json"]


def test_write_atomic_flushes_the_file_then_the_folder(tmp_path, monkeypatch):
    flushed = []
    real_fsync = os.fsync

    def fsync(descriptor):
        flushed.append(stat.S_ISDIR(os.fstat(descriptor).st_mode))
        real_fsync(descriptor)

    monkeypatch.setattr(os, "fsync", fsync)
    files.write_atomic(tmp_path / "key", b"abc")
    assert flushed == [False, True]


def test_a_private_file_is_private_from_its_first_byte(tmp_path):
    files.write_atomic(tmp_path / "key", "secret", private=True)
    assert stat.S_IMODE((tmp_path / "key").stat().st_mode) == 0o600


def test_a_failed_write_leaves_the_old_file_and_no_temporary(tmp_path, monkeypatch):
    target = tmp_path / "key"
    target.write_text("old")

    def full(descriptor, data):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "write", full)
    with pytest.raises(OSError):
        files.write_atomic(target, "new")
    assert target.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["key"]
