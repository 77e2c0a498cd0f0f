"""Claims on the standings cache's entries: one serving process computes a page, the
others do not compute it at the same time (standings.cache).

Atomic across the processes, which Django's ``FileBasedCache.add`` is not: it looks,
then writes, and two processes looking at once both "added" the claim and both
computed a page of a second or two (9,000 players in a loaded hall).
"""

from __future__ import annotations

import logging
import os
import time

from django.core.cache import cache, caches
from django.core.cache.backends.filebased import FileBasedCache

logger = logging.getLogger(__name__)


#: Seconds a claim on an entry holds when its value never comes (the computation failed).
CLAIM_SECONDS = 10.0
#: Seconds a time may lie ahead of the clock (the file system's grain: FAT keeps 2 s):
#: beyond that the clock was set back (a laptop meeting the hall's time server), and
#: what was made "in the future" counts as old, not as new for as long as the clock went back.
CLOCK_SLACK = 5.0


def fresh(age: float, seconds: float) -> bool:
    """Whether something ``age`` seconds old (by the wall clock, which every process shares)
    is younger than ``seconds``; a negative age beyond :data:`CLOCK_SLACK` is a clock set back."""
    return -CLOCK_SLACK <= age < seconds


def claim(key: str, seconds: float) -> bool:
    """True when this request is the one to compute ``key`` (for ``seconds`` at most), or
    when the cache cannot be used (compute here; the page is served either way).

    Atomic across the serving processes: Django's ``FileBasedCache.add`` looks, then
    writes, and two processes looking at once both "added" and both computed the page.
    A file cache's claim is a file created with O_EXCL beside the entries (not one of
    them: never culled nor listed); other caches' ``add`` is atomic already.
    """
    try:
        path = _claim_file(key)
        if path is None:
            return cache.add(f"{key}:computing", True, timeout=seconds)
        for _attempt in range(2):
            try:
                os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
                return True
            except FileExistsError:
                try:
                    if fresh(time.time() - os.stat(path).st_mtime, seconds):
                        return False
                    os.unlink(path)  # a claim nobody gave back (a killed worker): taken over
                except FileNotFoundError:
                    pass  # given back meanwhile: claim it
            except FileNotFoundError:
                os.makedirs(os.path.dirname(path), exist_ok=True)
        return False
    except Exception as error:  # the cache cannot be written: compute here
        logger.warning("standings cache not claimed (%s): %s", key, error)
        return True


def release(key: str) -> None:
    """Give back a :func:`claim` (the value is stored, or will not come)."""
    try:
        path = _claim_file(key)
        if path is None:
            cache.delete(f"{key}:computing")
        else:
            os.unlink(path)
    except FileNotFoundError:
        pass
    except Exception as error:  # it expires by itself
        logger.warning("standings cache claim not given back (%s): %s", key, error)


def _claim_file(key: str) -> str | None:
    """The claim file of ``key`` when the cache is a file cache, else None."""
    backend = caches["default"]
    if not isinstance(backend, FileBasedCache):
        return None
    return backend._key_to_file(key).removesuffix(FileBasedCache.cache_suffix) + ".claim"
