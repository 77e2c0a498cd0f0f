"""Seeing a file flushed to the disk: which files ``os.fsync`` was called on, in the test's process."""

from __future__ import annotations

import os
import stat
from pathlib import Path


class Flushed:
    """The files and folders flushed since :func:`watch`, by their identity on the disk
    (device and inode): a file written to a temporary name and renamed is the file flushed."""

    def __init__(self) -> None:
        self.seen: set[tuple[int, int]] = set()
        self.folders = 0

    def record(self, descriptor: int) -> None:
        status = os.fstat(descriptor)
        self.seen.add((status.st_dev, status.st_ino))
        self.folders += stat.S_ISDIR(status.st_mode)

    def __contains__(self, path: Path) -> bool:
        status = Path(path).stat()
        return (status.st_dev, status.st_ino) in self.seen


def watch(monkeypatch) -> Flushed:
    """Record every ``os.fsync`` from now on (the real one still runs)."""
    flushed = Flushed()
    real_fsync = os.fsync

    def fsync(descriptor: int) -> None:
        flushed.record(descriptor)
        real_fsync(descriptor)

    monkeypatch.setattr(os, "fsync", fsync)
    return flushed
