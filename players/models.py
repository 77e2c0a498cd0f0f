"""What the player's page stores: only the failed lookups, to throttle guessing (players.throttle)."""

from __future__ import annotations

from django.db import models


class LookupFailure(models.Model):
    """One failed lookup by start number and surname, counted per client address.

    ``key`` is the SHA-256 of the address (an address is personal data; the count needs
    only to tell addresses apart). Rows older than the window are pruned as new ones come.
    """

    key = models.CharField(max_length=64)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [models.Index(fields=["key", "created"], name="players_lookup_failure_key")]

    def __str__(self) -> str:
        return f"{self.key[:8]} {self.created:%H:%M:%S}"
