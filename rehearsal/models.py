"""The claim on a practice run: one row per tournament being played, shared by every
process of the office (``serve`` runs several), so a second start anywhere is refused."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _


class RehearsalClaim(models.Model):
    """A practice run of one tournament under way: who plays it and when it last said so.

    The unique tournament is the lock: the second of two starts at once fails its insert.
    A run refreshes ``heartbeat_at`` every few seconds (:mod:`rehearsal.claims`); one whose
    process died stops doing so, and its claim counts as stale and is taken over."""

    tournament = models.OneToOneField("tournaments.Tournament", on_delete=models.CASCADE, related_name="+")
    #: host:process:thread of the run, so only it refreshes or releases the claim.
    holder = models.CharField(max_length=200)
    started_at = models.DateTimeField()
    heartbeat_at = models.DateTimeField()
    #: Set by a stop sent to any process; the run stops after the deal under way.
    stop_requested = models.BooleanField(default=False)

    class Meta:
        verbose_name = _("practice run")
        verbose_name_plural = _("practice runs")

    def __str__(self) -> str:
        return f"practice run of tournament {self.tournament_id} by {self.holder}"
