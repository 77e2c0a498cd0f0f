"""The end of a league season: the league's rules for it (promotion and relegation places
per group, the forfeit fine, the individual ranking's rules), the point deductions and the
forfeits, each kept with who, when and why, and withdrawn only with a reason (audited).

Every number here is a row the league manager edits, never a constant (README, "Leagues").
"""

from __future__ import annotations

from decimal import Decimal

from django.conf import settings
from django.core.validators import MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from leagues.models import Group, League, LeagueTeam, MatchDay


class SeasonRules(models.Model):
    """The league's rules for the end of its season (one row per league, made when first edited)."""

    class Tie(models.TextChoices):
        SHARED = "shared", _("equal sums share the place")
        BEST_SERIES = "best_series", _("the better best series, then shared")

    league = models.OneToOneField(League, on_delete=models.CASCADE, related_name="season_rules")
    forfeit_fine = models.DecimalField(
        _("fine for a forfeit"),
        max_digits=8,
        decimal_places=2,
        default=Decimal("0"),
        validators=[MinValueValidator(Decimal("0"))],
        help_text=_("What a team pays that does not play its match day."),
    )
    individual_best = models.PositiveSmallIntegerField(
        _("series counted"), default=0, help_text=_("The individual ranking counts each player's best series; 0: all.")
    )
    individual_minimum = models.PositiveSmallIntegerField(
        _("series needed"), default=0, help_text=_("Players with fewer series are listed without a place.")
    )
    individual_tie = models.CharField(_("equal sums"), max_length=12, choices=Tie.choices, default=Tie.SHARED)
    #: The season this one was rolled over from, and what the rollover could not place.
    previous = models.ForeignKey(League, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    carried = models.TextField(_("from the previous season"), blank=True)

    class Meta:
        verbose_name = _("season rules")
        verbose_name_plural = _("season rules")

    def __str__(self) -> str:
        return str(self.league)


class GroupPlaces(models.Model):
    """A group's level in the league (1 the highest) and its promotion and relegation places."""

    group = models.OneToOneField(Group, on_delete=models.CASCADE, related_name="season_places")
    level = models.PositiveSmallIntegerField(
        _("level"), default=1, validators=[MinValueValidator(1)], help_text=_("1: the league's highest group.")
    )
    promotion = models.PositiveSmallIntegerField(_("promotion places"), default=0)
    relegation = models.PositiveSmallIntegerField(_("relegation places"), default=0)

    class Meta:
        ordering = ["group"]
        verbose_name = _("promotion and relegation places")
        verbose_name_plural = _("promotion and relegation places")

    def __str__(self) -> str:
        return f"{self.group}: +{self.promotion} / -{self.relegation}"


class Withdrawable(models.Model):
    """Made by a manager with a reason; withdrawn only with a reason, both kept."""

    reason = models.CharField(_("reason"), max_length=500)
    made_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    made_at = models.DateTimeField(_("when"), auto_now_add=True)
    withdrawn_at = models.DateTimeField(_("withdrawn at"), null=True, blank=True)
    withdrawn_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    withdrawal = models.CharField(_("why withdrawn"), max_length=500, blank=True)

    class Meta:
        abstract = True

    @property
    def in_force(self) -> bool:
        return self.withdrawn_at is None


class Deduction(Withdrawable):
    """League points taken off a team's season as a penalty (shown in the table with the reason)."""

    team = models.ForeignKey(
        LeagueTeam, verbose_name=_("team"), on_delete=models.CASCADE, related_name="season_deductions"
    )
    points = models.DecimalField(_("points"), max_digits=5, decimal_places=1)

    class Meta:
        ordering = ["made_at", "pk"]
        verbose_name = _("point deduction")
        verbose_name_plural = _("point deductions")
        constraints = [models.CheckConstraint(condition=Q(points__gt=0), name="deduction_points_positive")]

    def __str__(self) -> str:
        return f"{self.team}: -{self.points} ({self.reason})"


class Forfeit(Withdrawable):
    """A team did not play its match day: no points for it, every other team the points, and a fine."""

    match_day = models.ForeignKey(MatchDay, verbose_name=_("match day"), on_delete=models.CASCADE, related_name="+")
    team = models.ForeignKey(
        LeagueTeam, verbose_name=_("team"), on_delete=models.CASCADE, related_name="season_forfeits"
    )
    fine = models.DecimalField(_("fine"), max_digits=8, decimal_places=2)

    class Meta:
        ordering = ["made_at", "pk"]
        verbose_name = _("forfeit")
        verbose_name_plural = _("forfeits")
        constraints = [
            models.UniqueConstraint(
                fields=["match_day", "team"], condition=Q(withdrawn_at__isnull=True), name="forfeit_once_in_force"
            )
        ]

    def __str__(self) -> str:
        return f"{self.match_day}: {self.team}"
