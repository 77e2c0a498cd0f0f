"""Clubs and players: the people, across tournaments."""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from ..names import validate_name


class Club(models.Model):
    name = models.CharField(_("name"), max_length=120, unique=True, validators=[validate_name])

    class Meta:
        ordering = ["name"]
        verbose_name = _("club")
        verbose_name_plural = _("clubs")

    def __str__(self) -> str:
        return self.name


class PlayerQuerySet(models.QuerySet):
    def known_to(self, user) -> PlayerQuerySet:
        """Players the user may see by name: registered in a tournament he directs (all for
        a superuser). Players are shared by every tournament; a membership number typed in
        by another director must not tell him whom it belongs to."""
        if not user or not user.is_authenticated:
            return self.none()
        if user.is_superuser:
            return self
        return self.filter(registrations__tournament__directors=user).distinct()


class Player(models.Model):
    name = models.CharField(_("name"), max_length=120, validators=[validate_name])
    club = models.ForeignKey(
        Club, verbose_name=_("club"), null=True, blank=True, on_delete=models.SET_NULL, related_name="players"
    )
    membership_number = models.CharField(_("membership number"), max_length=32, blank=True)
    nationality = models.CharField(_("nationality"), max_length=3, blank=True, help_text=_("e.g. DE, AT, CH"))

    objects = PlayerQuerySet.as_manager()

    class Meta:
        ordering = ["name"]
        verbose_name = _("player")
        verbose_name_plural = _("players")
        constraints = [
            models.UniqueConstraint(
                fields=["membership_number"],
                condition=~Q(membership_number=""),
                name="player_membership_number_unique",
                violation_error_message=_("Another player has this membership number."),
            )
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.club})" if self.club_id else self.name
