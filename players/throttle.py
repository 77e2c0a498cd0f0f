"""Throttling the lookup by start number and surname, so it is no oracle for guessing.

Start numbers are small and surnames are printed on the wall: whoever tries numbers with a
surname would find where a player sits. Every lookup is counted *before* it is checked, as
rows of :class:`~players.models.LookupFailure` in the database all server processes share
(hashed, as accounts.throttle does): one for the client's address (an IPv4 address, an IPv6
address as it is: a /128) and, for IPv6, one for its /64. At ``PLAYER_LOOKUP_FAILURE_LIMIT``
rows of the address, or ``PLAYER_LOOKUP_FAILURE_LIMIT_PER_NETWORK`` of the /64, within
``PLAYER_LOOKUP_WINDOW`` seconds, that client's lookups are refused, the right ones too,
until the oldest has left the window. The /64's ceiling is higher: a hall on IPv6 shares
one /64, and one phone's misses lock that phone, not every phone; a phone rotating through
its /64 is held by the ceiling.

A lookup that finds its player deletes its rows (it counts nothing: a hall of phones
behind one address finds its seats at 50 a second); a miss keeps them. A refusal deletes
its rows too, so it never prolongs the lock. Counting first, each lookup sees at least the
rows written before its own, so a burst of lookups gets at most the limit's checks.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.http import HttpRequest
from django.utils import timezone

from accounts.throttle import address_of, client_ip, network_of

from .models import LookupFailure

#: Expired rows deleted per lookup at most: the table holds about one window's misses.
PRUNE_BATCH = 200


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def client_keys(request: HttpRequest) -> list[tuple[str, int]]:
    """The hashed keys a lookup counts under, each with its limit: the address's, and an
    IPv6 address's /64's with the higher ceiling."""
    ip = client_ip(request)
    address, network = address_of(ip), network_of(ip)
    keys = [(_digest(address), settings.PLAYER_LOOKUP_FAILURE_LIMIT)]
    if network != address:
        keys.append((_digest(network), settings.PLAYER_LOOKUP_FAILURE_LIMIT_PER_NETWORK))
    return keys


def _window_start():
    return timezone.now() - timedelta(seconds=settings.PLAYER_LOOKUP_WINDOW)


@dataclass(frozen=True)
class Lookup:
    """A lookup as :func:`begin` counted it: refused, or admitted with its rows written."""

    refused: bool
    row_ids: tuple[int, ...] = ()

    def found(self) -> None:
        """The player was found: the lookup counts nothing."""
        LookupFailure.objects.filter(pk__in=self.row_ids).delete()


def begin(request: HttpRequest) -> Lookup:
    """Count a lookup before it is checked: refused when the client's rows, its own
    included, pass a limit (its rows deleted again), else admitted."""
    expired = LookupFailure.objects.filter(created__lte=_window_start()).order_by("created")
    LookupFailure.objects.filter(pk__in=list(expired.values_list("pk", flat=True)[:PRUNE_BATCH])).delete()
    keys = client_keys(request)
    rows = [LookupFailure.objects.create(key=key) for key, _limit in keys]
    start = _window_start()
    for key, limit in keys:
        if LookupFailure.objects.filter(key=key, created__gt=start).count() > limit:
            LookupFailure.objects.filter(pk__in=[row.pk for row in rows]).delete()
            return Lookup(refused=True)
    return Lookup(refused=False, row_ids=tuple(row.pk for row in rows))
