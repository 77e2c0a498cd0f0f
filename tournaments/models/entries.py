"""Who plays in a tournament: teams and registrations."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from core.name_checks import validate_name

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


class Category(models.Model):
    """A tournament's own category (e.g. women, seniors, juniors): the standings, the
    ranking list and the league export can rank its players on their own."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="categories")
    name = models.CharField(_("name"), max_length=60, validators=[validate_name])
    #: An age category's rule, in ages at the start of the tournament's calendar year
    #: (German federation practice: juniors under 21, seniors 60 or older): a player
    #: whose list gives his year of birth and no other category is put in it.
    age_under = models.PositiveSmallIntegerField(
        _("younger than"), null=True, blank=True, validators=[MinValueValidator(1), MaxValueValidator(120)]
    )
    age_from = models.PositiveSmallIntegerField(
        _("aged at least"), null=True, blank=True, validators=[MaxValueValidator(120)]
    )

    class Meta:
        ordering = ["name"]
        verbose_name = _("category")
        verbose_name_plural = _("categories")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "name"],
                name="category_name_unique",
                violation_error_message=_("This tournament has this category already."),
            )
        ]

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        super().clean()
        if self.age_under is not None and self.age_from is not None and self.age_from >= self.age_under:
            raise ValidationError(
                {
                    "age_from": _("aged at least: must be below 'younger than' (%(under)s), or nobody fits")
                    % {"under": self.age_under}
                }
            )

    @property
    def by_age(self) -> bool:
        return self.age_under is not None or self.age_from is not None

    def takes(self, birth_year: int | None, year: int) -> bool:
        """Whether a player born in ``birth_year`` is of this age category in ``year``.

        His age at the start of the calendar year is ``year - birth_year - 1`` (he has his
        birthday during the year): born 2005, he is 20 on 1 January 2026, a junior under 21;
        born 1965, he is 60 then, a senior of 60 or older.
        """
        if birth_year is None or not self.by_age:
            return False
        age = year - birth_year - 1
        return (self.age_under is None or age < self.age_under) and (self.age_from is None or age >= self.age_from)


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
    category = models.ForeignKey(
        Category,
        verbose_name=_("category"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="members",
    )
    paid = models.BooleanField(_("entry fee paid"), default=False)
    #: Paid at the desk together with the entry fee: the list fees of every series he
    #: plays (money.ledger then charges him none at the tables).
    list_fees_paid = models.BooleanField(_("list fees paid"), default=False)
    present = models.BooleanField(_("present"), default=False)
    #: Fixed for the tournament: given at registration from Tournament.last_start_number,
    #: never reused; a player who leaves leaves a gap.
    start_number = models.PositiveIntegerField(_("start number"), null=True, blank=True)
    #: The player's name and club as tournaments.names.identity_key, with "#n" for the
    #: n-th namesake the director registered knowingly: a second registration of the same
    #: person racing in hits the unique constraint.
    identity_key = models.CharField(max_length=210, blank=True, editable=False)
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
            ),
            models.UniqueConstraint(
                fields=["tournament", "start_number"],
                name="registration_start_number_unique",
                violation_error_message=_("This start number is taken."),
            ),
            models.UniqueConstraint(
                fields=["tournament", "identity_key"],
                condition=~Q(identity_key=""),
                name="registration_identity_unique",
                violation_error_message=_("A player of this name and club is already registered."),
            ),
        ]

    def __str__(self) -> str:
        return str(self.player)
