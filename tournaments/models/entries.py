"""Who plays in a tournament: teams and registrations."""

from __future__ import annotations

from django.core.validators import MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from ..names import validate_name
from .people import Player
from .tournament import Tournament


class Team(models.Model):
    """Team-mates are never drawn to one table (DOMAIN, teams)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="teams")
    name = models.CharField(_("name"), max_length=120, validators=[validate_name])

    class Meta:
        ordering = ["name"]
        verbose_name = _("team")
        verbose_name_plural = _("teams")
        constraints = [models.UniqueConstraint(fields=["tournament", "name"], name="team_name_unique")]

    def __str__(self) -> str:
        return self.name


class RegistrationQuerySet(models.QuerySet):
    def playing_in(self, series_number: int) -> RegistrationQuerySet:
        """Registrations that take part in series ``series_number``: late entries from
        their first series on, withdrawals up to the series before they left."""
        return self.filter(first_series__lte=series_number).filter(
            Q(withdrawn_after_series__isnull=True) | Q(withdrawn_after_series__gte=series_number)
        )


class Registration(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="registrations")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="registrations")
    team = models.ForeignKey(
        Team, verbose_name=_("team"), null=True, blank=True, on_delete=models.SET_NULL, related_name="members"
    )
    first_series = models.PositiveSmallIntegerField(
        _("plays from series"), default=1, validators=[MinValueValidator(1)]
    )
    withdrawn_after_series = models.PositiveSmallIntegerField(
        _("withdrew after series"), null=True, blank=True, help_text=_("Empty while the player is still playing.")
    )
    paid = models.BooleanField(_("entry fee paid"), default=False)
    registered_at = models.DateTimeField(auto_now_add=True)

    objects = RegistrationQuerySet.as_manager()

    class Meta:
        ordering = ["player__name"]
        verbose_name = _("registration")
        verbose_name_plural = _("registrations")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "player"],
                name="registration_once_per_tournament",
                violation_error_message=_("This player is already registered."),
            )
        ]

    def __str__(self) -> str:
        return str(self.player)
