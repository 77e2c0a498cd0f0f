"""The sheet's sign-off (5.5.3): the players' confirmations, wrong PINs, the final sign-off,
a referee's decision that the sheet stands over the second list.

They live beside their logic (signoff.confirm, signoff.pins), on tables named
``referees_*`` and ``scoring_listsaccepted`` (``db_table``): databases made by any release
keep their rows (migrations signoff/0001 and scoring/0014 change Django's state only).
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _


class SignOff(models.Model):
    """A table's sheet, confirmed: by every player's PIN or signed on paper. It locks the sheet."""

    table = models.OneToOneField("tournaments.Table", on_delete=models.CASCADE, related_name="signoff")
    confirmed_at = models.DateTimeField(_("confirmed at"), auto_now_add=True)
    on_paper = models.BooleanField(_("signed on paper"), default=False)
    confirmed_by = models.CharField(_("confirmed by"), max_length=150, blank=True)
    fingerprint = models.CharField(max_length=64, help_text="The sheet as confirmed (see signoff.confirm).")

    class Meta:
        db_table = "referees_signoff"
        verbose_name = _("sign-off")
        verbose_name_plural = _("sign-offs")

    def __str__(self) -> str:
        return f"{self.table} {self.confirmed_at:%Y-%m-%d %H:%M}"


class SeatConfirmation(models.Model):
    """One player's confirmation of the sheet as it stood (its fingerprint): a later change
    of the sheet needs a new confirmation."""

    table = models.ForeignKey("tournaments.Table", on_delete=models.CASCADE, related_name="seat_confirmations")
    seat_number = models.PositiveSmallIntegerField(_("seat"))
    fingerprint = models.CharField(max_length=64)
    confirmed_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "referees_seatconfirmation"
        ordering = ["table", "seat_number"]
        verbose_name = _("player's confirmation")
        verbose_name_plural = _("players' confirmations")
        constraints = [
            models.UniqueConstraint(fields=["table", "seat_number", "fingerprint"], name="seat_confirms_sheet_once")
        ]

    def __str__(self) -> str:
        return f"{self.table} / {self.seat_number}"


class PinFailure(models.Model):
    """A wrong PIN typed on a table link: a few for one seat lock that seat's PIN entry
    for a while (the director or a referee can lift the lock)."""

    table = models.ForeignKey("tournaments.Table", on_delete=models.CASCADE, related_name="pin_failures")
    seat_number = models.PositiveSmallIntegerField(null=True, blank=True)
    at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        db_table = "referees_pinfailure"
        ordering = ["-at"]
        indexes = [models.Index(fields=["table", "at"], name="pin_failure_table_at")]

    def __str__(self) -> str:
        return f"{self.table} {self.at:%H:%M:%S}"


class ListsAccepted(models.Model):
    """A referee's decision that the sheet stands as it is although the second list
    differs (DOMAIN: the seat-1 list counts unless the players or a referee agree
    otherwise). It holds for the deals that differed then, as long as each of them stands
    as it stood (``deal_versions``): a correction of another deal leaves it standing.
    Until the lists match or such a decision exists the players cannot confirm
    (signoff.confirm)."""

    table = models.ForeignKey("tournaments.Table", on_delete=models.CASCADE, related_name="lists_accepted")
    fingerprint = models.CharField(max_length=64)
    #: The deal numbers where the lists differed when the referee decided.
    deals = models.JSONField(default=list)
    #: {deal number: [its game's pk, version, voided]} of those deals when the referee
    #: decided; empty on a decision from before it was kept (then the whole sheet's
    #: ``fingerprint`` must still match).
    deal_versions = models.JSONField(default=dict, blank=True)
    accepted_by = models.CharField(_("decided by"), max_length=150)
    accepted_at = models.DateTimeField(_("decided at"), auto_now_add=True)
    reason = models.TextField(_("why"), max_length=2000)

    class Meta:
        db_table = "scoring_listsaccepted"
        ordering = ["-accepted_at", "-pk"]
        verbose_name = _("sheet accepted over the second list")
        verbose_name_plural = _("sheets accepted over the second list")

    def __str__(self) -> str:
        return f"{self.table} {self.accepted_at:%Y-%m-%d %H:%M}"
