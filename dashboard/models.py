"""The hall check: the latest connection check of each table of a tournament's hall.

A phone at a table (its table link) sends a few round trips to the office before play
and reports what it measured (tablelink.hall_views); the director's dashboard shows
every table's state on a hall map (dashboard.hall), so a weak access point is moved
before the first deal. Kept by table number, not by the series' table: table 12 stands
in the same place of the hall in every series, so a check of series 1 holds for the
next ones, and the phones of a later series do not check a checked hall again.
"""

from __future__ import annotations

from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from tournaments.models import Tournament


class HallCheck(models.Model):
    """One table's latest check: how many round trips were sent and answered, and how
    long the answered ones took (milliseconds; none when nothing was answered)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="hall_checks")
    table_number = models.PositiveSmallIntegerField(_("table"))
    checked_at = models.DateTimeField(_("checked at"))
    sent = models.PositiveSmallIntegerField(_("round trips sent"))
    received = models.PositiveSmallIntegerField(_("round trips answered"))
    p50_ms = models.PositiveIntegerField(_("median round trip (ms)"), null=True)
    p95_ms = models.PositiveIntegerField(_("95th percentile round trip (ms)"), null=True)
    max_ms = models.PositiveIntegerField(_("slowest round trip (ms)"), null=True)

    class Meta:
        verbose_name = _("hall check")
        verbose_name_plural = _("hall checks")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "table_number"], name="hall_check_one_per_table"),
            models.CheckConstraint(condition=Q(received__lte=F("sent")), name="hall_check_received_at_most_sent"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament_id}/{self.table_number}: {self.received}/{self.sent}"

    @property
    def lost(self) -> int:
        return self.sent - self.received
