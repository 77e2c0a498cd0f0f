"""Files the office writes for itself, written so that a power cut leaves the old or the new.

A laptop in a hall loses power (a foot on the cable, a flat battery). A file written with
``open(...).write`` and renamed is only in the disk's cache until the system flushes it; after
the cut it may be empty or missing although the rename happened. :func:`write_atomic`
writes a temporary file beside the target, flushes it to the disk (``fsync``), renames it over
the target and flushes the folder, so the name points to the whole new content or still to
the old one, never to nothing.

Standard library only: the settings use it before Django is set up.
"""

from __future__ import annotations

import os
from pathlib import Path


def sync_folder(folder: Path) -> None:
    """Flush a folder's entries (a rename, a new file) to the disk where the system allows it.

    POSIX needs this after a rename for the new name to survive a power cut; Windows cannot
    open a folder for it and makes the rename durable itself (NTFS journals it).
    """
    if os.name == "nt":
        return
    descriptor = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


def write_atomic(path: Path, data: bytes | str, *, private: bool = False) -> None:
    """Replace ``path`` with ``data`` whole, durably: the old content or the new, never a part.

    ``private`` makes the file readable by its owner only (mode 0600), from its first byte.
    Raises OSError (a full disk, a read-only folder); the target is then unchanged and the
    temporary file removed.
    """
    path = Path(path)
    payload = data.encode("utf-8") if isinstance(data, str) else data
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600 if private else 0o644)
    try:
        try:
            view = memoryview(payload)
            while view:
                written = os.write(descriptor, view)
                view = view[written:]
            os.fsync(descriptor)
        finally:
            os.close(descriptor)
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    sync_folder(path.parent)
