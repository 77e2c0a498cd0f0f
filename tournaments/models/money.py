"""A tournament's money rules as tables (DOMAIN, "Fees"): lost-game and passed-out fees,
table money, prizes. Never constants: each tournament has its own rows."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from skat.sheet import TABLE_SIZES

from .tournament import Tournament


class LostGameFee(models.Model):
    """One step of the lost-game fee schedule: from the nth lost game on, pay ``amount``.

    The common schedule (DOMAIN) is two steps: from the 1st 0.50, from the 4th 1.00.
    """

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="lost_game_fees")
    from_lost_game = models.PositiveSmallIntegerField(_("from the nth lost game"), validators=[MinValueValidator(1)])
    amount = models.DecimalField(_("amount"), max_digits=6, decimal_places=2, validators=[MinValueValidator(0)])

    class Meta:
        ordering = ["from_lost_game"]
        verbose_name = _("lost-game fee")
        verbose_name_plural = _("lost-game fees")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "from_lost_game"], name="lost_game_fee_step_unique")
        ]

    def __str__(self) -> str:
        return f"from {self.from_lost_game}: {self.amount}"


class PassedOutFee(models.Model):
    """One step of the passed-out fee at a table of one size: from the nth passed-out
    deal on, each player at the table pays ``amount`` (DOMAIN: e.g. 0.50 from the 4th at
    a table of three, from the 5th at four)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="passed_out_fees")
    table_size = models.PositiveSmallIntegerField(_("table size"), choices=[(s, str(s)) for s in TABLE_SIZES])
    from_passed_out = models.PositiveSmallIntegerField(
        _("from the nth passed-out deal"), validators=[MinValueValidator(1)]
    )
    amount = models.DecimalField(
        _("amount per player"), max_digits=6, decimal_places=2, validators=[MinValueValidator(0)]
    )

    class Meta:
        ordering = ["table_size", "from_passed_out"]
        verbose_name = _("passed-out fee")
        verbose_name_plural = _("passed-out fees")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "table_size", "from_passed_out"], name="passed_out_fee_step_unique"
            ),
            models.CheckConstraint(condition=Q(table_size__in=TABLE_SIZES), name="passed_out_fee_size_3_or_4"),
            models.CheckConstraint(condition=Q(from_passed_out__gte=1), name="passed_out_fee_from_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.table_size}: from {self.from_passed_out}: {self.amount}"


class TableMoney(models.Model):
    """Table money (Tischgeld) paid out by place at a table of one size (DOMAIN: e.g.
    2.00 / 1.20 / 0.80 / 0 at four, 2.00 / 1.00 / 0 at three)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="table_money")
    table_size = models.PositiveSmallIntegerField(_("table size"), choices=[(s, str(s)) for s in TABLE_SIZES])
    place = models.PositiveSmallIntegerField(
        _("place at the table"), validators=[MinValueValidator(1), MaxValueValidator(4)]
    )
    amount = models.DecimalField(_("amount"), max_digits=6, decimal_places=2, validators=[MinValueValidator(0)])

    class Meta:
        ordering = ["table_size", "place"]
        verbose_name = _("table money")
        verbose_name_plural = _("table money")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "table_size", "place"], name="table_money_place_unique"),
            models.CheckConstraint(condition=Q(table_size__in=TABLE_SIZES), name="table_money_size_3_or_4"),
            models.CheckConstraint(
                condition=Q(place__gte=1, place__lte=models.F("table_size")), name="table_money_place_at_table"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table_size}: {self.place}. {self.amount}"

    def clean(self) -> None:
        super().clean()
        if self.place and self.table_size and self.place > self.table_size:
            raise ValidationError(
                {
                    "place": _("A table of %(size)s has no place %(place)s.")
                    % {"size": self.table_size, "place": self.place}
                }
            )


class Prize(models.Model):
    """One line of the prize table: the player ranked ``place`` in the final standings
    gets a share of the prize pool (``percent``) or a fixed ``amount``, exactly one of them.

    Paid out by :func:`skat.prizes.prize_list`; the pool is the tournament's
    ``prize_pool_percent`` of what the fees leave after the table money. A line with a
    ``category`` is that category's own prize (the best woman: place 1 of "Damen"), paid
    from the same pool besides any prize of the overall ranking.
    """

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="prizes")
    category = models.ForeignKey(
        "tournaments.Category",
        verbose_name=_("category"),
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="prizes",
        help_text=_("empty: the overall ranking"),
    )
    place = models.PositiveSmallIntegerField(_("place"), validators=[MinValueValidator(1)])
    percent = models.DecimalField(
        _("share of the prize pool (%)"),
        max_digits=5,
        decimal_places=2,
        null=True,
        blank=True,
        validators=[MinValueValidator(0), MaxValueValidator(100)],
    )
    amount = models.DecimalField(
        _("fixed amount"), max_digits=8, decimal_places=2, null=True, blank=True, validators=[MinValueValidator(0)]
    )

    class Meta:
        ordering = ["place"]
        verbose_name = _("prize")
        verbose_name_plural = _("prizes")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "place"], condition=Q(category__isnull=True), name="prize_place_unique"
            ),
            models.UniqueConstraint(
                fields=["tournament", "category", "place"],
                condition=Q(category__isnull=False),
                name="prize_category_place_unique",
            ),
            models.CheckConstraint(condition=Q(place__gte=1), name="prize_place_positive"),
            models.CheckConstraint(
                condition=Q(percent__isnull=True, amount__isnull=False)
                | Q(percent__isnull=False, amount__isnull=True),
                name="prize_share_or_amount",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.place}: {self.percent} %" if self.percent is not None else f"{self.place}: {self.amount}"

    def clean(self) -> None:
        if (self.percent is None) == (self.amount is None):
            message = _("Give either a share of the prize pool or a fixed amount for place %(place)s.") % {
                "place": self.place
            }
            raise ValidationError({"percent": message})

    def rule(self):
        from skat.prizes import PrizeRule

        return PrizeRule(self.place, self.percent, self.amount)
