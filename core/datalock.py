"""One office per data folder: a lock file that the serving office holds while it runs.

Two offices on one SQLite file both start and both give out deal numbers; a restore while an
office serves replaces the database under the phones' feet. The serving office holds an
operating-system lock on ``office.lock`` in its data folder for as long as it runs; the
system lets go of it when the process ends, however it ends (kill -9 and a power cut
included), so a stale file never blocks a start. The file's text says who holds it (process,
computer, since when, what for), for the one-line refusal.

On POSIX the lock is ``flock`` on the whole file; on Windows ``msvcrt.locking`` on one byte
far past the text, so the text stays readable while the lock is held.

Standard library only.
"""

from __future__ import annotations

import contextlib
import os
import socket
import sys
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

NAME = "office.lock"

#: Where the Windows lock byte lies: past any holder text, which stays readable.
_LOCK_OFFSET = 4096


class Busy(Exception):
    """Another process holds the data folder; ``holder`` says who (or is empty)."""

    def __init__(self, folder: Path, holder: str) -> None:
        self.folder = folder
        self.holder = holder
        super().__init__(f"another office uses {folder}" + (f" ({holder})" if holder else ""))


def _try_lock(descriptor: int) -> bool:
    if sys.platform == "win32":
        import msvcrt

        os.lseek(descriptor, _LOCK_OFFSET, os.SEEK_SET)
        try:
            msvcrt.locking(descriptor, msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True
    import fcntl

    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False
    return True


def _unlock(descriptor: int) -> None:
    if sys.platform == "win32":
        import msvcrt

        os.lseek(descriptor, _LOCK_OFFSET, os.SEEK_SET)
        with contextlib.suppress(OSError):
            msvcrt.locking(descriptor, msvcrt.LK_UNLCK, 1)
        return
    import fcntl

    fcntl.flock(descriptor, fcntl.LOCK_UN)


def _read_holder(path: Path) -> str:
    try:
        with open(path, "rb") as handle:
            text = handle.read(512).decode("utf-8", "replace")
    except OSError:
        return ""
    return " ".join(text.split())[:200]


@dataclass
class DataLock:
    """The lock on ``folder``; :meth:`acquire` takes it or raises :class:`Busy`."""

    folder: Path
    purpose: str = "serve"
    _descriptor: int | None = None

    @property
    def path(self) -> Path:
        return Path(self.folder) / NAME

    def acquire(self) -> DataLock:
        self.folder = Path(self.folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        descriptor = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        if not _try_lock(descriptor):
            os.close(descriptor)
            raise Busy(self.folder, _read_holder(self.path))
        text = (
            f"{self.purpose} pid {os.getpid()} on {socket.gethostname()} "
            f"since {datetime.now().astimezone().isoformat(timespec='seconds')}\n"
        )
        os.lseek(descriptor, 0, os.SEEK_SET)
        os.ftruncate(descriptor, 0)
        os.write(descriptor, text.encode("utf-8"))
        self._descriptor = descriptor
        return self

    def release(self) -> None:
        if self._descriptor is None:
            return
        descriptor, self._descriptor = self._descriptor, None
        with contextlib.suppress(OSError):
            os.ftruncate(descriptor, 0)
        _unlock(descriptor)
        os.close(descriptor)

    @property
    def held(self) -> bool:
        return self._descriptor is not None

    def __enter__(self) -> DataLock:
        return self.acquire()

    def __exit__(self, *exc: object) -> None:
        self.release()


def holder(folder: Path) -> str | None:
    """Who holds ``folder``'s lock (its text, maybe empty), or None when nobody does.

    Tries the lock and lets go at once. The lock belongs to an open file, not a process: the
    holder asking through this function is told it is held too.
    """
    path = Path(folder) / NAME
    if not path.exists():
        return None
    try:
        descriptor = os.open(path, os.O_RDWR)
    except OSError:
        return None
    try:
        if _try_lock(descriptor):
            _unlock(descriptor)
            return None
        return _read_holder(path)
    finally:
        os.close(descriptor)
