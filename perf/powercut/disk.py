"""The simulated disk: what the programs see at once, and what a power cut leaves.

A real disk's cache holds written data until the system flushes it; after a power cut
only what was flushed is there. :class:`Disk` keeps two states of one folder tree:

- the *visible* one, in the folder ``lower`` itself: every operation (write, truncate,
  create, rename, unlink, mkdir, rmdir) is applied there at once, as programs expect;
- the *durable* one, in memory and in ``store``: a file's data becomes durable only by
  ``fsync``/``fdatasync`` of that file; a folder's entries (the names in it, where they
  point) only by ``fsync`` of the folder. A new file whose name was made durable but
  whose data never was is empty after the cut (as ext4's zero-length files); a file
  fsynced but whose name never was is gone (its inode is lost).

:meth:`Disk.cut` writes the durable state into ``lower``: afterwards it holds exactly
what the disk would hold after a power loss. With ``names_at_once`` every change of a
folder's entries is durable at once and only file data waits for its fsync (what
LazyFS models: metadata on the disk, data in the cache).

Not modelled: a part of the unsynced data surviving (a kernel writes dirty pages back
on its own within about 30 s; here they wait forever, so every cut is as harsh as one
right after the write), torn sectors and writes reordered within synced data, disks
that lie about their flush, hard links and symbolic links (refused), file modes (those
at the cut where the file is still there), times and extended attributes (not kept).

Standard library only; the FUSE pass-through (:mod:`perf.powercut.mount`) calls it.
"""

from __future__ import annotations

import contextlib
import errno
import itertools
import os
import shutil
import threading
from dataclasses import dataclass, field
from pathlib import Path

ROOT = 0


@dataclass
class Handle:
    """An open file: its descriptor in ``lower`` and the node it is (which survives renames)."""

    fd: int
    node: int


@dataclass
class Pending:
    """A file's changes since its last fsync: the byte ranges written and the lowest size it was cut to."""

    ranges: list[tuple[int, int]] = field(default_factory=list)
    cut_to: int | None = None


class Disk:
    """``lower``'s tree as programs see it, with the state a power cut would leave (see the module)."""

    def __init__(self, lower: Path, store: Path, *, names_at_once: bool = False) -> None:
        self.lower = Path(lower)
        self.store = Path(store)
        self.store.mkdir(parents=True, exist_ok=True)
        self.names_at_once = names_at_once
        self.lock = threading.RLock()
        self._ids = itertools.count(1)
        self.visible: dict[str, int] = {"": ROOT}  # relative path -> node
        self.dirs: set[int] = {ROOT}
        self.durable: dict[int, dict[str, int]] = {ROOT: {}}  # folder node -> its durable entries
        self.pristine: dict[int, str] = {}  # node -> path in lower still holding its durable data
        self.synced: set[int] = set()  # nodes whose durable data is store/<node>
        self.pending: dict[int, Pending] = {}
        self.handles: dict[int, Handle] = {}
        self._fhs = itertools.count(1)
        self.dead = False
        for folder, names, files in os.walk(self.lower):
            base = os.path.relpath(folder, self.lower)
            base = "" if base == "." else base
            for name in sorted(names) + sorted(files):
                path = f"{base}/{name}" if base else name
                if os.path.islink(self.lower / path):
                    continue  # not modelled: left out of the durable state
                node = next(self._ids)
                self.visible[path] = node
                self.durable[self.visible[base]][name] = node
                if name in names:
                    self.dirs.add(node)
                    self.durable[node] = {}
                else:
                    self.pristine[node] = path

    # What programs do -------------------------------------------------------------------

    def open(self, path: str, flags: int, mode: int = 0o644) -> int:
        """A handle on ``path`` (created with O_CREAT); O_APPEND is the caller's: writes come with their offset."""
        with self.lock:
            self._alive()
            path = clean(path)
            created = path not in self.visible
            if created and not flags & os.O_CREAT:
                raise OSError(errno.ENOENT, "no such file", path)
            if not created and flags & os.O_TRUNC:
                self._preserve(self.visible[path])
            if flags & os.O_ACCMODE == os.O_WRONLY:  # its fsync reads what it wrote back
                flags = flags & ~os.O_ACCMODE | os.O_RDWR
            fd = os.open(self.lower / path, flags & ~os.O_APPEND, mode)
            if created:
                self.visible[path] = next(self._ids)
                self._names_changed(parent(path))
            node = self.visible[path]
            if flags & os.O_TRUNC:
                self._pending(node).cut_to = 0
            fh = next(self._fhs)
            self.handles[fh] = Handle(fd, node)
            return fh

    def close(self, fh: int) -> None:
        with self.lock:
            handle = self.handles.pop(fh, None)
            if handle is not None:
                os.close(handle.fd)

    def read(self, fh: int, size: int, offset: int) -> bytes:
        with self.lock:
            self._alive()
            return os.pread(self.handles[fh].fd, size, offset)

    def write(self, fh: int, data: bytes, offset: int) -> int:
        with self.lock:
            self._alive()
            handle = self.handles[fh]
            self._preserve(handle.node)
            written = os.pwrite(handle.fd, data, offset)
            self._pending(handle.node).ranges.append((offset, written))
            return written

    def truncate(self, path: str | None, length: int, fh: int | None = None) -> None:
        with self.lock:
            self._alive()
            node = self.handles[fh].node if fh is not None else self.visible[clean(path or "")]
            self._preserve(node)
            if fh is not None:
                os.ftruncate(self.handles[fh].fd, length)
            else:
                os.truncate(self.lower / clean(path or ""), length)
            pending = self._pending(node)
            pending.cut_to = length if pending.cut_to is None else min(pending.cut_to, length)

    def fsync(self, fh: int) -> None:
        """The file's data onto the disk (its name is its folder's, see :meth:`fsync_dir`)."""
        with self.lock:
            self._alive()
            handle = self.handles[fh]
            self._sync_data(handle.node, handle.fd)

    def fsync_dir(self, path: str) -> None:
        """The folder's entries onto the disk: its names and the nodes they point to, as they are now."""
        with self.lock:
            self._alive()
            self._sync_names(clean(path))

    def mkdir(self, path: str, mode: int) -> None:
        with self.lock:
            self._alive()
            path = clean(path)
            os.mkdir(self.lower / path, mode)
            node = next(self._ids)
            self.visible[path] = node
            self.dirs.add(node)
            self.durable[node] = {}
            self._names_changed(parent(path))

    def rmdir(self, path: str) -> None:
        with self.lock:
            self._alive()
            path = clean(path)
            os.rmdir(self.lower / path)
            del self.visible[path]
            self._names_changed(parent(path))

    def unlink(self, path: str) -> None:
        with self.lock:
            self._alive()
            path = clean(path)
            self._preserve(self.visible[path])
            os.unlink(self.lower / path)
            del self.visible[path]
            self._names_changed(parent(path))

    def rename(self, old: str, new: str) -> None:
        with self.lock:
            self._alive()
            old, new = clean(old), clean(new)
            moved = {p: n for p, n in self.visible.items() if p == old or p.startswith(old + "/")}
            for node in [*moved.values(), self.visible.get(new)]:  # their paths in lower change or go
                if node is not None and node not in self.dirs:
                    self._preserve(node)
            os.rename(self.lower / old, self.lower / new)
            for path in [p for p in self.visible if p == new or p.startswith(new + "/")]:
                del self.visible[path]
            for path in moved:
                del self.visible[path]
            for path, node in moved.items():
                self.visible[new + path[len(old) :]] = node
            self._names_changed(parent(old), parent(new))

    # The cut ----------------------------------------------------------------------------

    def cut(self) -> None:
        """The power goes: nothing more is done, and ``lower`` becomes what the disk holds.

        Call it once every program stopped using the tree (killed, the mount gone).
        """
        with self.lock:
            self.dead = True
            for handle in self.handles.values():
                os.close(handle.fd)
            self.handles.clear()
            after = self.lower.with_name(self.lower.name + ".after-cut")
            shutil.rmtree(after, ignore_errors=True)
            after.mkdir()
            self._build(ROOT, after, seen=set(), paths={node: path for path, node in self.visible.items()})
            before = self.lower.with_name(self.lower.name + ".before-cut")
            self.lower.rename(before)
            after.rename(self.lower)
            shutil.rmtree(before)
            shutil.rmtree(self.store)

    def _build(self, folder: int, into: Path, seen: set[int], paths: dict[int, str]) -> None:
        for name, node in sorted(self.durable[folder].items()):
            if node in seen:  # a folder moved into itself in the durable state: once is enough
                continue
            seen.add(node)
            target = into / name
            if node in self.dirs:
                target.mkdir()
                self._build(node, target, seen, paths)
            elif node in self.synced:
                shutil.copyfile(self.store / str(node), target)
            elif node in self.pristine:
                shutil.copyfile(self.lower / self.pristine[node], target)
            else:
                target.touch()
            if node in paths:  # its mode as the programs last set it (a private key file stays private)
                with contextlib.suppress(OSError):
                    shutil.copymode(self.lower / paths[node], target)

    # Inside -----------------------------------------------------------------------------

    def _alive(self) -> None:
        if self.dead:
            raise OSError(errno.EIO, "the power is cut")

    def _pending(self, node: int) -> Pending:
        return self.pending.setdefault(node, Pending())

    def _preserve(self, node: int) -> None:
        """Before the first change of a file unchanged since the mount: its durable data into the store."""
        path = self.pristine.pop(node, None)
        if path is not None:
            shutil.copyfile(self.lower / path, self.store / str(node))
            self.synced.add(node)

    def _sync_data(self, node: int, fd: int) -> None:
        stored = self.store / str(node)
        size = os.fstat(fd).st_size
        pending = self.pending.pop(node, Pending())
        if node not in self.synced:  # new since the mount: all of it
            pending = Pending(ranges=[(0, size)], cut_to=0)
        with open(stored, "r+b" if node in self.synced else "wb") as out:
            if pending.cut_to is not None:
                out.truncate(pending.cut_to)
            for offset, length in merged(pending.ranges):
                if offset < size:
                    out.seek(offset)
                    out.write(os.pread(fd, min(length, size - offset), offset))
            out.truncate(size)
        self.synced.add(node)

    def _sync_names(self, path: str) -> None:
        folder = self.visible[path]
        entries = {}
        for name in os.listdir(self.lower / path):
            child = f"{path}/{name}" if path else name
            if child in self.visible and not name.startswith(".fuse_hidden"):
                entries[name] = self.visible[child]
        for node in entries.values():
            if node not in self.dirs and node not in self.synced and node not in self.pristine:
                (self.store / str(node)).write_bytes(b"")  # the name is on the disk, its data is not
                self.synced.add(node)
        self.durable[folder] = entries

    def _names_changed(self, *folders: str) -> None:
        if self.names_at_once:
            for folder in dict.fromkeys(folders):
                self._sync_names(folder)


def clean(path: str) -> str:
    """A path relative to the tree's root, as the FUSE layer's "/a/b" or a plain "a/b"."""
    return path.strip("/")


def parent(path: str) -> str:
    return path.rpartition("/")[0]


def merged(ranges: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The written byte ranges as few non-overlapping ones."""
    out: list[tuple[int, int]] = []
    for start, length in sorted(ranges):
        end = start + length
        if out and start <= out[-1][0] + out[-1][1]:
            first = out[-1][0]
            out[-1] = (first, max(out[-1][0] + out[-1][1], end) - first)
        else:
            out.append((start, length))
    return out
