"""The tournament: its settings, directors and the money rules it owns."""

from __future__ import annotations

from decimal import Decimal

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from core.name_checks import validate_name

from .defaults import new_seed


class TournamentQuerySet(models.QuerySet):
    def for_user(self, user) -> TournamentQuerySet:
        """Tournaments the user directs (all of them for a superuser)."""
        if not user.is_authenticated:
            return self.none()
        if user.is_superuser:
            return self
        return self.filter(directors=user)


class Tournament(models.Model):
    """One event with its own rules and money tables (DOMAIN: never constants)."""

    name = models.CharField(_("name"), max_length=160, validators=[validate_name])
    date = models.DateField(_("date"))
    venue = models.CharField(_("venue"), max_length=160, blank=True, validators=[validate_name])
    series_count = models.PositiveSmallIntegerField(
        _("number of series"), default=2, validators=[MinValueValidator(1), MaxValueValidator(20)]
    )
    rounds_per_series = models.PositiveSmallIntegerField(
        _("rounds per series"),
        default=12,
        validators=[MinValueValidator(1), MaxValueValidator(30)],
        help_text=_("A round is one deal by each player at the table: 12 rounds are 36 deals at three, 48 at four."),
    )
    entry_fee = models.DecimalField(_("entry fee"), max_digits=8, decimal_places=2, default=Decimal("0"))
    list_fee = models.DecimalField(_("list fee per series"), max_digits=8, decimal_places=2, default=Decimal("0"))
    prize_pool_percent = models.PositiveSmallIntegerField(
        _("share of the fees for prizes (%)"), default=100, validators=[MaxValueValidator(100)]
    )
    list_fee_refund_percent = models.PositiveSmallIntegerField(
        _("list fees refunded on withdrawal (%)"),
        default=100,
        validators=[MaxValueValidator(100)],
        help_text=_(
            "A player who paid his list fees at the desk and withdraws gets this share back for every series "
            "he no longer plays; 0: the organiser keeps them."
        ),
    )

    class TableMoneyFrom(models.TextChoices):
        """Where table money comes from when a table collects less than its table money."""

        TABLE = "table", _("at most what the table collects (list, lost-game and passed-out fees)")
        FULL = "full", _("in full: what the table lacks comes out of the entry fees")

    table_money_from = models.CharField(
        _("table money is paid"),
        max_length=8,
        choices=TableMoneyFrom.choices,
        default=TableMoneyFrom.TABLE,
        # In the database too: a row written without it (raw SQL, an older program) is valid.
        db_default=TableMoneyFrom.TABLE,
        help_text=_(
            "At most what the table collects: paid in the order of the places, each as far as the "
            "money goes. In full: the organiser pays what the table lacks from the entry fees."
        ),
    )
    lot_seed = models.PositiveIntegerField(
        _("seed for draws and lots"), default=new_seed, help_text=_("Makes draws and tie-breaks by lot reproducible.")
    )
    standings_public = models.BooleanField(
        _("publish standings"), default=False, help_text=_("Anyone with the link may see the standings.")
    )
    directors = models.ManyToManyField(
        settings.AUTH_USER_MODEL, verbose_name=_("directors"), blank=True, related_name="directed_tournaments"
    )
    #: The last start number given (tournaments.services.next_start_numbers): numbers are
    #: never given twice, even when the last-numbered player leaves.
    last_start_number = models.PositiveIntegerField(default=0, editable=False)
    archived = models.BooleanField(
        _("archived"), default=False, help_text=_("Hidden from the front page's list; its pages stay reachable.")
    )
    #: A rehearsal's tournament (``manage.py rehearse``): marked on every page and PDF, never
    #: published or exported to a league. Set when the rehearsal creates it, never by a form.
    practice = models.BooleanField(_("practice"), default=False, db_default=False, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)

    objects = TournamentQuerySet.as_manager()

    class Meta:
        ordering = ["-date", "name"]
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")

    def __str__(self) -> str:
        return f"{self.name} ({self.date:%Y-%m-%d})"

    def save(self, *args, **kwargs) -> None:
        # A full save of a tournament loaded earlier (the rules page) must not write an
        # older start-number counter back: only tournaments.services moves it.
        if not self._state.adding and kwargs.get("update_fields") is None and not kwargs.get("force_insert"):
            kwargs["update_fields"] = [
                f.name for f in self._meta.concrete_fields if not f.primary_key and f.name != "last_start_number"
            ]
        super().save(*args, **kwargs)

    def get_absolute_url(self) -> str:
        return reverse("director:detail", args=[self.pk])

    def deals_per_table(self, size: int) -> int:
        """3.2.1: a round is one deal by each player, so a series has rounds x size deals."""
        return self.rounds_per_series * size

    @property
    def deals_at_three(self) -> int:
        return self.deals_per_table(3)

    @property
    def deals_at_four(self) -> int:
        return self.deals_per_table(4)

    def is_director(self, user) -> bool:
        return user.is_authenticated and (user.is_superuser or self.directors.filter(pk=user.pk).exists())

    def fee_rules(self):
        """The money rules as :class:`skat.fees.FeeRules` (three queries, or none when prefetched)."""
        from skat.fees import FeeRules

        passed: dict[int, list] = {}
        for step in self.passed_out_fees.all():
            passed.setdefault(step.table_size, []).append((step.from_passed_out, step.amount))
        money: dict[int, dict] = {}
        for row in self.table_money.all():
            money.setdefault(row.table_size, {})[row.place] = row.amount
        return FeeRules(
            entry_fee=self.entry_fee,
            list_fee=self.list_fee,
            prize_pool_percent=self.prize_pool_percent,
            list_fee_refund_percent=self.list_fee_refund_percent,
            lost_game_steps=tuple((step.from_lost_game, step.amount) for step in self.lost_game_fees.all()),
            passed_out_steps={size: tuple(steps) for size, steps in passed.items()},
            table_money=money,
            table_money_capped=self.table_money_from == self.TableMoneyFrom.TABLE,
        )

    def prize_rules(self) -> tuple:
        """The prize table as :class:`skat.prizes.PrizeRule` lines (one query, none when prefetched)."""
        return tuple(prize.rule() for prize in self.prizes.all() if prize.category_id is None)

    def category_prize_rules(self) -> dict[int, tuple]:
        """Each category's own prize table: {category id: its PrizeRule lines}."""
        rules: dict[int, list] = {}
        for prize in self.prizes.all():
            if prize.category_id is not None:
                rules.setdefault(prize.category_id, []).append(prize.rule())
        return {category: tuple(lines) for category, lines in rules.items()}
