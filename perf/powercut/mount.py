"""The simulated disk mounted with FUSE: ``python -m perf.powercut.mount LOWER MOUNTPOINT STORE [--names-at-once]``.

A pass-through file system (mfusepy over Debian's libfuse3): every operation under
MOUNTPOINT is done in LOWER through :class:`perf.powercut.disk.Disk`, which remembers what
a power cut would leave. It is driven by lines on its standard input:

- ``cut``: the power goes; every later operation fails (EIO) and, once the mount is gone
  (``fusermount3 -u``), LOWER is rewritten to what the disk holds;
- nothing (the mount simply taken away): a clean stop, LOWER keeps everything.

It prints ``mounted`` when it serves and ``cut`` when the cut is taken, one line each.
POSIX and flock locks are the kernel's (no ``lock`` operation), so SQLite's locking
works as on a local disk; its shared memory file is mapped through the kernel's cache.
"""

from __future__ import annotations

import errno
import os
import shutil
import sys
import threading
from pathlib import Path
from typing import Any

from .disk import Disk, clean

#: The stat fields the kernel asks for.
STAT_FIELDS = (
    "st_mode",
    "st_nlink",
    "st_uid",
    "st_gid",
    "st_size",
    "st_atime_ns",
    "st_mtime_ns",
    "st_ctime_ns",
    "st_blocks",
    "st_blksize",
)


def available() -> str | None:
    """Why the simulator cannot mount here, or None: /dev/fuse, fusermount3 and mfusepy with libfuse."""
    if not os.path.exists("/dev/fuse"):
        return "there is no /dev/fuse (a container without FUSE)"
    if not shutil.which("fusermount3"):
        return "fusermount3 is missing (Debian: apt-get install fuse3)"
    try:
        import mfusepy  # noqa: F401
    except (ImportError, OSError) as error:  # OSError: libfuse not found by ctypes
        return f"mfusepy cannot be loaded ({error}; pip install -e '.[dev]', Debian: apt-get install fuse3)"
    return None


class PassThrough:
    """mfusepy's operations, each one call of :class:`Disk` or of the folder ``lower`` for what keeps no state."""

    use_ns = True

    def __init__(self, disk: Disk) -> None:
        self.disk = disk

    def _real(self, path: str) -> Path:
        return self.disk.lower / clean(path)

    def getattr(self, path: str, fh: int | None = None) -> dict[str, Any]:
        if fh is not None and fh in self.disk.handles:
            status = os.fstat(self.disk.handles[fh].fd)
        else:
            status = os.lstat(self._real(path))
        values = {name: getattr(status, name) for name in STAT_FIELDS}
        for name in ("st_atime", "st_mtime", "st_ctime"):
            values[name] = values.pop(name + "_ns")
        return values

    def readdir(self, path: str, fh: int) -> list[str]:
        return [".", "..", *os.listdir(self._real(path))]

    def access(self, path: str, amode: int) -> int:
        if not os.access(self._real(path), amode):
            raise OSError(errno.EACCES, "access denied")
        return 0

    def statfs(self, path: str) -> dict[str, int]:
        stat = os.statvfs(self.disk.lower)
        names = ("f_bavail", "f_bfree", "f_blocks", "f_bsize", "f_favail", "f_ffree", "f_files", "f_frsize")
        return {name: getattr(stat, name) for name in names} | {"f_namemax": 255}

    def chmod(self, path: str, mode: int) -> int:
        os.chmod(self._real(path), mode)
        return 0

    def chown(self, path: str, uid: int, gid: int) -> int:
        os.chown(self._real(path), uid, gid)
        return 0

    def utimens(self, path: str, times: tuple[int, int] | None = None) -> int:
        os.utime(self._real(path), ns=times) if times else os.utime(self._real(path))
        return 0

    def open(self, path: str, flags: int) -> int:
        return self.disk.open(path, flags)

    def create(self, path: str, mode: int, flags: int | None = None) -> int:
        return self.disk.open(path, (os.O_RDWR if flags is None else flags) | os.O_CREAT, mode)

    def read(self, path: str, size: int, offset: int, fh: int) -> bytes:
        return self.disk.read(fh, size, offset)

    def write(self, path: str, data: bytes, offset: int, fh: int) -> int:
        return self.disk.write(fh, data, offset)

    def truncate(self, path: str, length: int, fh: int | None = None) -> int:
        self.disk.truncate(path, length, fh)
        return 0

    def flush(self, path: str, fh: int) -> int:
        return 0  # close() is no flush to the disk

    def release(self, path: str, fh: int) -> int:
        self.disk.close(fh)
        return 0

    def fsync(self, path: str, datasync: int, fh: int) -> int:
        self.disk.fsync(fh)
        return 0

    def fsyncdir(self, path: str, datasync: int, fh: int) -> int:
        self.disk.fsync_dir(path)
        return 0

    def mkdir(self, path: str, mode: int) -> int:
        self.disk.mkdir(path, mode)
        return 0

    def rmdir(self, path: str) -> int:
        self.disk.rmdir(path)
        return 0

    def unlink(self, path: str) -> int:
        self.disk.unlink(path)
        return 0

    def rename(self, old: str, new: str) -> int:
        self.disk.rename(old, new)
        return 0


def listen(disk: Disk, mountpoint: str) -> None:
    """Take the commands on standard input (see the module); a closed input ends nothing."""
    for line in sys.stdin:
        if line.strip() == "cut":
            with disk.lock:
                disk.dead = True
            print("cut", flush=True)


def announce(mountpoint: str) -> None:
    """Say ``mounted`` once the kernel serves the mount (checked from outside the FUSE loop)."""
    import time

    for _ in range(600):
        if os.path.ismount(mountpoint):
            print("mounted", flush=True)
            return
        time.sleep(0.05)


def main(argv: list[str]) -> int:
    from mfusepy import FUSE

    names_at_once = "--names-at-once" in argv
    lower, mountpoint, store = (a for a in argv if not a.startswith("--"))
    disk = Disk(Path(lower), Path(store), names_at_once=names_at_once)
    threading.Thread(target=listen, args=(disk, mountpoint), daemon=True).start()
    threading.Thread(target=announce, args=(mountpoint,), daemon=True).start()
    # Foreground, threaded (one lock inside the Disk); the kernel's own page cache is dropped at each open.
    FUSE(PassThrough(disk), mountpoint, foreground=True, fsname="powercut")
    if disk.dead:
        disk.cut()
    else:  # a clean stop: what the programs see is what the disk keeps
        shutil.rmtree(disk.store, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
