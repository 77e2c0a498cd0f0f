"""The collected static files, written once per version of the code and so that a power cut
never leaves them broken.

``serve`` used to run collectstatic at every start, and Django rewrites its manifest
(``staticfiles.json``, the hashed name of every file) without flushing it to the disk: a
power cut there left it empty and the next start died with "Couldn't load manifest".
Now:

- :class:`DurableManifestStorage` (the STORAGES' ``staticfiles`` with DEBUG off) writes the
  manifest with core.files.write_atomic (the old one or the new, never a part), and reads
  a damaged one as none (so collectstatic can rebuild it) instead of dying;
- :func:`collect` collects only when the stamp beside STATIC_ROOT does not name this
  version of the static files (the office's and Django's versions and a hash of every
  source file) or the manifest found is damaged or names a file that is missing; it then
  clears the folder, collects anew, flushes every file and folder to the disk, and writes
  the stamp last. A cut at any point before the stamp makes the next start collect again.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
from pathlib import Path

import django
from django.conf import settings
from django.contrib.staticfiles.finders import get_finders
from django.core.management import call_command
from whitenoise.storage import CompressedManifestStaticFilesStorage

from core.files import sync_folder, write_atomic

logger = logging.getLogger("config.staticfiles")

#: What collectstatic leaves out by default (its --ignore patterns), so the hash sees what it copies.
IGNORED = ["CVS", ".*", "*~"]


class DurableManifestStorage(CompressedManifestStaticFilesStorage):
    """whitenoise's compressed, hashed files, with a manifest that survives a power cut."""

    def load_manifest(self) -> tuple[dict, str]:
        """The stored manifest; a damaged one (empty, not JSON, another version) as none, with a warning."""
        try:
            return super().load_manifest()
        except ValueError:
            logger.warning("The static files' manifest %s is damaged: it is collected anew.", self.manifest_name)
            return {}, ""

    def save_manifest(self) -> None:
        """As Django writes it, but whole and durably (core.files.write_atomic), never deleted first."""
        from django.core.files.base import ContentFile

        self.manifest_hash = self.file_hash(None, ContentFile(json.dumps(sorted(self.hashed_files.items())).encode()))
        payload = {"paths": self.hashed_files, "version": self.manifest_version, "hash": self.manifest_hash}
        write_atomic(Path(self.manifest_storage.path(self.manifest_name)), json.dumps(payload))


def root() -> Path:
    return Path(settings.STATIC_ROOT)


def stamp_path() -> Path:
    """The stamp of the last complete collection: beside STATIC_ROOT, which collectstatic clears."""
    return root().with_name(root().name + ".collected")


def sources_digest() -> str:
    """This version of the static files: the office's and Django's versions, every source file's path and bytes."""
    from skat import __version__

    digest = hashlib.sha256(f"{__version__} {django.get_version()} {settings.STORAGES['staticfiles']}".encode())
    for finder in get_finders():
        for path, storage in sorted(finder.list(IGNORED), key=lambda found: found[0]):
            digest.update(f"\0{getattr(storage, 'prefix', None) or ''}/{path}\0".encode())
            with storage.open(path) as handle:
                digest.update(handle.read())
    return digest.hexdigest()


def manifest_problem(folder: Path | None = None) -> str | None:
    """Why the manifest in ``folder`` (STATIC_ROOT) cannot serve: missing, damaged, naming a missing file; or None."""
    folder = folder or root()
    path = folder / "staticfiles.json"
    try:
        stored = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return "missing"
    except (OSError, ValueError):
        return "damaged"
    if not isinstance(stored, dict) or not isinstance(stored.get("paths"), dict) or not stored["paths"]:
        return "damaged"
    for hashed in stored["paths"].values():
        if not (folder / str(hashed)).is_file():
            return f"{hashed} is missing"
    return None


def sync_tree(folder: Path) -> None:
    """Flush every file under ``folder`` and every folder's entries to the disk."""
    for directory, _folders, files in os.walk(folder):
        for name in files:
            # Windows flushes only a file opened for writing; POSIX any.
            descriptor = os.open(Path(directory) / name, os.O_RDWR if os.name == "nt" else os.O_RDONLY)
            try:
                os.fsync(descriptor)
            finally:
                os.close(descriptor)
        sync_folder(Path(directory))
    sync_folder(folder.parent)


def collect() -> bool:
    """Collect the static files unless this version is collected whole already; True when it collected."""
    digest = sources_digest()
    stamp = stamp_path()
    try:
        stamped = stamp.read_text(encoding="utf-8").strip()
    except OSError:
        stamped = ""
    if stamped == digest and manifest_problem() is None:
        return False
    if stamp.exists():
        stamp.unlink()  # gone for good before a file changes: a cut from here on collects again
        sync_folder(stamp.parent)
    root().mkdir(parents=True, exist_ok=True)
    call_command("collectstatic", interactive=False, verbosity=0, clear=True)
    sync_tree(root())
    write_atomic(stamp, digest + "\n")
    return True
