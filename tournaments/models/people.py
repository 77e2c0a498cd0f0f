"""Clubs and players: the people, across tournaments."""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from core.name_checks import validate_name

from ..names import search_key, sort_key


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
    #: The year of birth, where a list gives it: an age category (juniors, seniors) follows
    #: from it by the tournament's own rules (Category.takes), never from a constant.
    birth_year = models.PositiveSmallIntegerField(
        _("year of birth"),
        null=True,
        blank=True,
        validators=[MinValueValidator(1900), MaxValueValidator(2100)],
    )
    #: Kept from ``name`` on every save (tournaments.names): the door's search box looks
    #: a player up with one filter per typed word, the lists sort by surname.
    search_key = models.CharField(max_length=400, blank=True, db_index=True, editable=False)
    sort_key = models.CharField(max_length=160, blank=True, db_index=True, editable=False)

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

    def save(self, *args, **kwargs) -> None:
        self.fill_keys()
        if kwargs.get("update_fields") is not None and "name" in kwargs["update_fields"]:
            kwargs["update_fields"] = {*kwargs["update_fields"], "search_key", "sort_key"}
        super().save(*args, **kwargs)

    def fill_keys(self) -> Player:
        """Derive the search and sort keys from the name (bulk_create skips save: call this)."""
        self.search_key = search_key(self.name)[:400]
        self.sort_key = sort_key(self.name)
        return self


class PlayerChange(models.Model):
    """A change to a person's name, club or membership number, which every tournament and
    league he plays in shows: who made it, from which tournament, what it was before.
    Kept because such a change reaches beyond the tournament it was made from."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="changes")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("changed by"), null=True, on_delete=models.SET_NULL, related_name="+"
    )
    #: The tournament whose players page made it (None: the admin).
    tournament = models.ForeignKey(
        "tournaments.Tournament", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    at = models.DateTimeField(_("when"), auto_now_add=True)
    before = models.JSONField(_("before"))
    after = models.JSONField(_("after"))

    class Meta:
        ordering = ["-at", "-pk"]
        verbose_name = _("player change")
        verbose_name_plural = _("player changes")

    def __str__(self) -> str:
        return f"{self.player_id}: {self.before} -> {self.after}"
