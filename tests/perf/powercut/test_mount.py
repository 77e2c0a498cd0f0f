"""The simulated disk mounted with FUSE: programs write through it with ordinary calls, and a cut
leaves what a power loss would; a clean unmount keeps everything."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys

import pytest


def fsync_folder(path) -> None:
    descriptor = os.open(path, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


def test_an_unsynced_write_is_gone_after_the_cut_and_a_synced_one_is_kept(office):
    office.mount(names_at_once=False)
    data = office.mountpoint
    (data / "unsynced").write_text("lost")
    with open(data / "synced", "w") as handle:
        handle.write("kept")
        handle.flush()
        os.fsync(handle.fileno())
    fsync_folder(data)
    (data / "late").write_text("after the folder's fsync")
    assert sorted(os.listdir(data)) == ["late", "synced", "unsynced"]
    office.cut()
    assert sorted(os.listdir(office.lower)) == ["synced", "unsynced"]
    assert (office.lower / "synced").read_text() == "kept"
    assert (office.lower / "unsynced").read_text() == ""  # its name was synced with the folder, not its data


def test_a_rename_without_the_folders_fsync_is_reverted(office):
    (office.lower / "key").write_text("the old key")
    office.mount(names_at_once=False)
    with open(office.mountpoint / ".key.tmp", "w") as handle:
        handle.write("the new key")
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(office.mountpoint / ".key.tmp", office.mountpoint / "key")
    assert (office.mountpoint / "key").read_text() == "the new key"
    office.cut()
    assert os.listdir(office.lower) == ["key"]
    assert (office.lower / "key").read_text() == "the old key"


def test_names_at_once_keep_a_new_file_empty_when_its_data_was_not_synced(office):
    office.mount(names_at_once=True)
    (office.mountpoint / "staticfiles.json").write_text('{"paths": {}}')
    office.cut()
    assert (office.lower / "staticfiles.json").read_text() == ""


def test_a_clean_unmount_keeps_everything(office):
    office.mount(names_at_once=False)
    (office.mountpoint / "file").write_text("never synced")
    office.unmount()
    assert (office.lower / "file").read_text() == "never synced"


def test_after_the_cut_the_mount_refuses_every_operation(office):
    office.mount(names_at_once=False)
    (office.mountpoint / "file").write_text("x")
    office.disk.stdin.write("cut\n")
    office.disk.stdin.flush()
    assert office.disk.stdout.readline().strip() == "cut"
    with pytest.raises(OSError):
        (office.mountpoint / "file").read_text()
    office.unmount()


#: A program committing 20 rows one by one, then waiting to be killed.
WRITER = """
import sqlite3, sys, time
db = sqlite3.connect(sys.argv[1], isolation_level=None)
db.execute("PRAGMA journal_mode=WAL")
db.execute("PRAGMA synchronous=" + sys.argv[2])
db.execute("CREATE TABLE deal (number INTEGER)")
db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
for number in range(20):
    db.execute("INSERT INTO deal VALUES (?)", [number])
print("committed", flush=True)
time.sleep(60)
"""


@pytest.mark.parametrize(("synchronous", "kept"), [("FULL", 20), ("NORMAL", 0)])
def test_sqlite_keeps_its_commits_through_a_cut_only_with_synchronous_full(office, synchronous, kept):
    """The finding behind the run: in WAL mode NORMAL does not fsync a commit, FULL does."""
    office.mount(names_at_once=False)
    writer = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(office.mountpoint / "db.sqlite3"), synchronous],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert writer.stdout.readline().strip() == "committed"
    finally:
        writer.kill()  # SIGKILL: no close, no checkpoint
        writer.wait()
    office.cut()
    after = sqlite3.connect(office.lower / "db.sqlite3")
    try:
        assert after.execute("SELECT count(*) FROM deal").fetchone() == (kept,)
    finally:
        after.close()
