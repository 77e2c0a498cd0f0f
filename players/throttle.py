"""Throttling the lookup by start number and surname, so it is no oracle for guessing.

Start numbers are small and surnames are printed on the wall: whoever tries numbers with a
surname would find the player's page. Every failed lookup is counted per client address
(hashed, as accounts.throttle does; an IPv6 address by its /64, which one phone may rotate
through: accounts.throttle.client_network) in the database all server processes share; at
``PLAYER_LOOKUP_FAILURE_LIMIT`` failures within ``PLAYER_LOOKUP_WINDOW`` seconds that
address's lookups are refused, the right ones too, until the oldest failure has left the
window. A successful lookup counts nothing: a hall of phones behind one address finds its
seats at 50 a second. A refusal counts nothing either, so it never prolongs the lock.
"""

from __future__ import annotations

import hashlib
from datetime import timedelta

from django.conf import settings
from django.utils import timezone

from accounts.throttle import client_network

from .models import LookupFailure

#: Expired rows deleted per failure at most: the table holds about one window's failures.
PRUNE_BATCH = 200


def address_key(request) -> str:
    """The hashed client a miss counts for: its IPv4 address, or its IPv6 address's /64."""
    return hashlib.sha256(client_network(request).encode()).hexdigest()


def _window_start():
    return timezone.now() - timedelta(seconds=settings.PLAYER_LOOKUP_WINDOW)


def locked(request) -> bool:
    """This address has failed too often within the window (one query)."""
    limit = settings.PLAYER_LOOKUP_FAILURE_LIMIT
    recent = LookupFailure.objects.filter(key=address_key(request), created__gt=_window_start())
    return recent.count() >= limit


def count_failure(request) -> None:
    """Record a failed lookup of this address, pruning a batch of expired rows first."""
    expired = LookupFailure.objects.filter(created__lte=_window_start()).order_by("created").values("pk")
    LookupFailure.objects.filter(pk__in=list(expired[:PRUNE_BATCH])).delete()
    LookupFailure.objects.create(key=address_key(request))
