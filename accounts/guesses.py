"""A guess limit kept in the cache: failures per client, a lock after too many.

For secrets a client sends with each request (the host tokens of a league server:
leagues.publication.host_of_request). Each failure is a timestamp in a list kept per client
(its address, an IPv6 one by its /64: accounts.throttle.client_network) and per purpose,
hashed, in the cache every server process shares (settings.CACHES, files); the list keeps
at most the limit's newest failures and expires with the window. At the limit the client is
locked until the oldest of them has left the window. A success counts nothing and a refusal
counts nothing, so it never prolongs the lock.

The file cache has no atomic update: failures of one client at the very same moment may be
counted once between them, so a client sending in parallel gets a few times the limit per
window at most, never an unbounded number (the login throttle, accounts.throttle, which
guards passwords, locks in the database instead).
"""

from __future__ import annotations

import hashlib
import math
import time
from dataclasses import dataclass

from django.core.cache import cache
from django.http import HttpRequest

from .throttle import client_network


def _now() -> float:
    return time.time()


@dataclass(frozen=True)
class GuessLimit:
    """``limit`` failures of one client within ``window`` seconds lock it (for ``purpose``)."""

    purpose: str
    limit: int
    window: int

    def _key(self, request: HttpRequest) -> str:
        client = hashlib.sha256(client_network(request).encode()).hexdigest()
        return f"guesses:{self.purpose}:{client}"

    def _recent(self, key: str, now: float) -> list[float]:
        stamps = cache.get(key)
        if not isinstance(stamps, list):
            return []
        start = now - self.window
        return sorted(t for t in stamps if isinstance(t, float) and start < t <= now)

    def failures(self, request: HttpRequest) -> int:
        """How many failures of this client the window holds (at most the limit)."""
        return len(self._recent(self._key(request), _now()))

    def retry_after(self, request: HttpRequest) -> int | None:
        """The seconds until this client may try again; None when it may now."""
        now = _now()
        limit = max(1, self.limit)
        failures = self._recent(self._key(request), now)
        if len(failures) < limit:
            return None
        return max(1, math.ceil(failures[-limit] + self.window - now))

    def count_failure(self, request: HttpRequest) -> None:
        """Record a failure of this client."""
        now = _now()
        key = self._key(request)
        failures = [*self._recent(key, now), now][-max(1, self.limit) :]
        cache.set(key, failures, timeout=max(1, self.window))
