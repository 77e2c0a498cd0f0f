"""Django's file cache, culled now and then instead of at every write.

The serving processes share their rendered standings pages, boards and claims through
files (settings.CACHES). Django's ``FileBasedCache`` lists its whole directory at every
``set`` to decide whether to cull, a thousand files read at each of the several writes a
change of the results costs (the list, the projector's page, the outline, the finality):
a fifth of what the first request after a deal took at 9,000 players. Here a process
lists the directory at most once per :data:`CULL_EVERY` writes or :data:`CULL_SECONDS`
seconds, whichever comes first: the folder may hold that many files more than
``MAX_ENTRIES`` for a moment, and culls as before then. Reading, writing, expiry and
``clear`` are Django's.
"""

from __future__ import annotations

import threading
import time

from django.core.cache.backends.filebased import FileBasedCache

#: Writes of a process between two looks at the cache's directory.
CULL_EVERY = 64
#: ... and seconds: a process that writes rarely still culls.
CULL_SECONDS = 10.0

# Django makes one cache object per thread: the writes are counted per process and folder.
_writes: dict[str, tuple[int, float]] = {}
_guard = threading.Lock()


class RarelyCulledFileCache(FileBasedCache):
    """``FileBasedCache`` whose cull (a listing of the folder) runs once per :data:`CULL_EVERY`
    writes or :data:`CULL_SECONDS` seconds of the process, not at every write."""

    def _cull(self) -> None:
        now = time.monotonic()
        with _guard:
            count, since = _writes.get(self._dir, (0, now))
            due = count + 1 >= CULL_EVERY or now - since >= CULL_SECONDS
            _writes[self._dir] = (0, now) if due else (count + 1, since)
        if due:
            super()._cull()
