"""A guess limit kept in the database: failures per client, a lock after too many.

For secrets a client sends with each request (the host tokens of a league server:
leagues.publication.host_of_request). Each failure is a row of
:class:`~accounts.models.GuessFailure` per purpose and per client (its address, an IPv6 one
by its /64: accounts.throttle.client_network; hashed) in the database every server process
shares, as the login throttle (accounts.throttle) and the players' lookup lock
(players.throttle) count theirs. A row is inserted, never a count read and written back, so
failures of one client at the same moment in several processes and threads are all
counted. At the limit the client is locked until the limit-th newest of its failures has
left the window. A success counts nothing and a refusal counts nothing, so it never
prolongs the lock. Rows that have left the window are pruned, a bounded batch with each
failure.

A guess is counted *before* its secret is checked (:meth:`GuessLimit.begin`): its row is
inserted first, then the client's rows are counted, its own and those of every guess
still being checked included; beyond the limit the guess is refused and its row deleted.
Each guess counts at least every row inserted before its own, so of any burst at most
``limit`` reach the check (40 at once against a limit of 10 gave 12 checks when the count
came after the check). Under a burst the limit may refuse a guess early (all of them
counting each other), never late. The right secret deletes its row: it counts nothing.
"""

from __future__ import annotations

import hashlib
import math
import time
from dataclasses import dataclass
from datetime import UTC, datetime

from django.http import HttpRequest

from .models import GuessFailure
from .throttle import client_network

#: Expired rows deleted per failure at most: the table holds about one window's failures.
PRUNE_BATCH = 200


def _now() -> float:
    return time.time()


def _moment(seconds: float) -> datetime:
    return datetime.fromtimestamp(seconds, tz=UTC)


def _client(request: HttpRequest) -> str:
    """The hashed client a failure counts for: its IPv4 address, or its IPv6 address's /64."""
    return hashlib.sha256(client_network(request).encode()).hexdigest()


@dataclass(frozen=True)
class Guess:
    """A guess as :meth:`GuessLimit.begin` counted it: admitted (``row_id``) or refused
    (``wait`` seconds until the client may try again)."""

    row_id: int | None
    wait: int | None

    def right(self) -> None:
        """The secret was right: the guess counts nothing."""
        if self.row_id is not None:
            GuessFailure.objects.filter(pk=self.row_id).delete()


@dataclass(frozen=True)
class GuessLimit:
    """``limit`` failures of one client within ``window`` seconds lock it (for ``purpose``)."""

    purpose: str
    limit: int
    window: int

    def _recent(self, request: HttpRequest, now: float):
        return GuessFailure.objects.filter(
            purpose=self.purpose,
            client=_client(request),
            created__gt=_moment(now - self.window),
            created__lte=_moment(now),
        )

    def failures(self, request: HttpRequest) -> int:
        """How many failures of this client the window holds."""
        return self._recent(request, _now()).count()

    def retry_after(self, request: HttpRequest) -> int | None:
        """The seconds until this client may try again; None when it may now (one query)."""
        now = _now()
        limit = max(1, self.limit)
        newest = list(self._recent(request, now).order_by("-created").values_list("created", flat=True)[:limit])
        if len(newest) < limit:
            return None
        return max(1, math.ceil(newest[-1].timestamp() + self.window - now))

    def begin(self, request: HttpRequest) -> Guess:
        """Count a guess before its secret is checked: admitted (its row written, to be
        forgiven with :meth:`Guess.right`) or refused (``wait`` seconds, nothing kept)."""
        now = _now()
        self._prune(now)
        row = GuessFailure.objects.create(purpose=self.purpose, client=_client(request), created=_moment(now))
        limit = max(1, self.limit)
        recent = GuessFailure.objects.filter(
            purpose=self.purpose, client=row.client, created__gt=_moment(now - self.window)
        )
        if recent.count() <= limit:
            return Guess(row.pk, None)
        row.delete()
        return Guess(None, self.retry_after(request) or 1)

    def _prune(self, now: float) -> None:
        expired = GuessFailure.objects.filter(purpose=self.purpose, created__lte=_moment(now - self.window))
        GuessFailure.objects.filter(
            pk__in=list(expired.order_by("created").values_list("pk", flat=True)[:PRUNE_BATCH])
        ).delete()

    def count_failure(self, request: HttpRequest) -> None:
        """Record a failure of this client, pruning a batch of this limit's expired rows first
        (for a secret checked without :meth:`begin`)."""
        now = _now()
        self._prune(now)
        GuessFailure.objects.create(purpose=self.purpose, client=_client(request), created=_moment(now))
