"""The simulated disk keeps what a disk keeps after a power cut: what was fsynced, nothing else.

A file's data by fsync of the file, a folder's names by fsync of the folder (strict, as
POSIX promises no more); with names at once, only the data waits (as LazyFS models).
"""

from __future__ import annotations

import errno
import os

import pytest

from perf.powercut.disk import Disk, merged


@pytest.fixture
def lower(tmp_path):
    folder = tmp_path / "disk"
    folder.mkdir()
    (folder / "old.txt").write_bytes(b"old content")
    (folder / "sub").mkdir()
    (folder / "sub" / "inner.txt").write_bytes(b"inner")
    return folder


def disk_on(lower, **options) -> Disk:
    return Disk(lower, lower.parent / "store", **options)


def write(disk: Disk, path: str, data: bytes, *, sync: bool = False, flags: int = os.O_CREAT | os.O_WRONLY) -> None:
    fh = disk.open(path, flags)
    disk.write(fh, data, 0)
    if sync:
        disk.fsync(fh)
    disk.close(fh)


def tree(folder) -> dict[str, bytes | None]:
    """Every path under ``folder``: a file's bytes, None for a folder."""
    return {str(p.relative_to(folder)): (None if p.is_dir() else p.read_bytes()) for p in sorted(folder.rglob("*"))}


def test_what_was_there_at_the_mount_survives_a_cut(lower):
    before = tree(lower)
    disk_on(lower).cut()
    assert tree(lower) == before


def test_a_new_file_never_synced_is_gone(lower):
    disk = disk_on(lower)
    write(disk, "new.txt", b"unsynced")
    assert (lower / "new.txt").read_bytes() == b"unsynced"  # the programs see it at once
    disk.cut()
    assert not (lower / "new.txt").exists()


def test_a_new_file_synced_and_its_folder_synced_is_kept(lower):
    disk = disk_on(lower)
    write(disk, "new.txt", b"synced", sync=True)
    disk.fsync_dir("/")
    disk.cut()
    assert (lower / "new.txt").read_bytes() == b"synced"


def test_a_file_synced_whose_folder_was_not_is_gone(lower):
    disk = disk_on(lower)
    write(disk, "new.txt", b"synced", sync=True)
    disk.cut()
    assert not (lower / "new.txt").exists()


def test_a_name_synced_without_its_data_is_an_empty_file(lower):
    disk = disk_on(lower)
    write(disk, "key", b"a secret")
    disk.fsync_dir("")
    disk.cut()
    assert (lower / "key").read_bytes() == b""


def test_with_names_at_once_a_new_unsynced_file_is_empty_after_the_cut(lower):
    disk = disk_on(lower, names_at_once=True)
    write(disk, "staticfiles.json", b'{"paths": {}}')
    disk.cut()
    assert (lower / "staticfiles.json").read_bytes() == b""


def test_a_private_file_stays_private_through_the_cut(lower):
    disk = disk_on(lower)
    write(disk, "key", b"secret", sync=True)
    os.chmod(lower / "key", 0o600)
    disk.fsync_dir("")
    disk.cut()
    assert (lower / "key").stat().st_mode & 0o777 == 0o600


def test_an_overwrite_without_fsync_leaves_the_old_content(lower):
    disk = disk_on(lower)
    write(disk, "old.txt", b"NEW", flags=os.O_WRONLY | os.O_TRUNC)
    assert (lower / "old.txt").read_bytes() == b"NEW"
    disk.cut()
    assert (lower / "old.txt").read_bytes() == b"old content"


def test_a_synced_write_is_kept_and_a_later_unsynced_one_is_not(lower):
    disk = disk_on(lower)
    fh = disk.open("old.txt", os.O_RDWR)
    disk.write(fh, b"OLD", 0)
    disk.fsync(fh)
    disk.write(fh, b"CONTENT and more", 4)
    disk.close(fh)
    disk.cut()
    assert (lower / "old.txt").read_bytes() == b"OLD content"


def test_a_truncate_is_kept_only_once_synced(lower):
    disk = disk_on(lower)
    disk.truncate("old.txt", 3)
    disk.cut()
    assert (lower / "old.txt").read_bytes() == b"old content"
    disk = disk_on(lower)
    fh = disk.open("old.txt", os.O_RDWR)
    disk.truncate(None, 3, fh)
    disk.write(fh, b"!", 5)  # a hole between: zeros
    disk.fsync(fh)
    disk.close(fh)
    disk.cut()
    assert (lower / "old.txt").read_bytes() == b"old\0\0!"


def test_a_rename_without_the_folders_fsync_is_reverted(lower):
    disk = disk_on(lower)
    disk.rename("old.txt", "renamed.txt")
    assert (lower / "renamed.txt").exists()
    disk.cut()
    assert (lower / "old.txt").read_bytes() == b"old content"
    assert not (lower / "renamed.txt").exists()


def test_a_rename_over_a_file_with_the_folders_fsync_is_kept(lower):
    """The durable replacement: a temporary file written and fsynced, renamed over, the folder fsynced."""
    disk = disk_on(lower)
    write(disk, ".old.txt.tmp", b"replaced", sync=True)
    disk.rename(".old.txt.tmp", "old.txt")
    disk.fsync_dir("")
    disk.cut()
    assert tree(lower)["old.txt"] == b"replaced"
    assert not (lower / ".old.txt.tmp").exists()


def test_a_rename_over_a_file_whose_data_was_not_synced_leaves_an_empty_file(lower):
    """The secret key file's old way: written, renamed, the folder synced (by SQLite), the data never."""
    disk = disk_on(lower)
    write(disk, ".old.txt.tmp", b"replaced")
    disk.rename(".old.txt.tmp", "old.txt")
    disk.fsync_dir("")
    disk.cut()
    assert (lower / "old.txt").read_bytes() == b""


def test_an_unlink_without_the_folders_fsync_is_reverted(lower):
    disk = disk_on(lower)
    disk.unlink("sub/inner.txt")
    disk.cut()
    assert (lower / "sub" / "inner.txt").read_bytes() == b"inner"


def test_an_unlink_with_the_folders_fsync_is_kept(lower):
    disk = disk_on(lower)
    disk.unlink("sub/inner.txt")
    disk.fsync_dir("sub")
    disk.cut()
    assert tree(lower) == {"old.txt": b"old content", "sub": None}


def test_a_new_folder_is_gone_unless_its_parent_was_synced(lower):
    disk = disk_on(lower)
    disk.mkdir("new", 0o755)
    write(disk, "new/file", b"x", sync=True)
    disk.fsync_dir("new")
    disk.cut()
    assert not (lower / "new").exists()
    disk = disk_on(lower)
    disk.mkdir("new", 0o755)
    write(disk, "new/file", b"x", sync=True)
    disk.fsync_dir("new")
    disk.fsync_dir("")
    disk.cut()
    assert (lower / "new" / "file").read_bytes() == b"x"


def test_a_renamed_folder_keeps_its_files_under_the_name_the_disk_has(lower):
    disk = disk_on(lower)
    disk.rename("sub", "moved")
    write(disk, "moved/inner.txt", b"changed", sync=True, flags=os.O_WRONLY)
    assert (lower / "moved" / "inner.txt").read_bytes() == b"changed"
    disk.cut()
    assert tree(lower) == {"old.txt": b"old content", "sub": None, "sub/inner.txt": b"changed"}


def test_after_the_cut_every_operation_fails(lower):
    disk = disk_on(lower)
    disk.cut()
    with pytest.raises(OSError) as raised:
        disk.open("old.txt", os.O_RDONLY)
    assert raised.value.errno == errno.EIO


def test_a_missing_file_is_not_found_unless_created(lower):
    disk = disk_on(lower)
    with pytest.raises(FileNotFoundError):
        disk.open("missing", os.O_RDONLY)


def test_merged_ranges_overlap_and_touch_into_one():
    assert merged([(10, 5), (0, 4), (4, 2), (12, 10), (30, 1)]) == [(0, 6), (10, 12), (30, 1)]
