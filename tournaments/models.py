"""Players, tournaments, series, tables and seats.

The structure follows the tournament practice of ../shared/DOMAIN.md: a tournament has
one or more series; for each series the registered players are drawn onto tables of
four and three; a series is a whole number of rounds, a round being one deal by each
player of the table (3.2.1). Database constraints, not only forms, keep the seating
sound: seat numbers are unique per table and a player sits at most once per series.
"""

from __future__ import annotations

import secrets
from decimal import Decimal

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from scoring.sheet import TABLE_SIZES


def new_token() -> str:
    """An unguessable table link token: 128 bits, URL-safe."""
    return secrets.token_urlsafe(16)


def new_seed() -> int:
    return secrets.randbelow(2**31)


class Club(models.Model):
    name = models.CharField(_("name"), max_length=120, unique=True)

    class Meta:
        ordering = ["name"]
        verbose_name = _("club")
        verbose_name_plural = _("clubs")

    def __str__(self) -> str:
        return self.name


class Player(models.Model):
    name = models.CharField(_("name"), max_length=120)
    club = models.ForeignKey(
        Club, verbose_name=_("club"), null=True, blank=True, on_delete=models.SET_NULL, related_name="players"
    )
    membership_number = models.CharField(_("membership number"), max_length=32, blank=True)
    nationality = models.CharField(_("nationality"), max_length=3, blank=True, help_text=_("e.g. DE, AT, CH"))

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

    name = models.CharField(_("name"), max_length=160)
    date = models.DateField(_("date"))
    venue = models.CharField(_("venue"), max_length=160, blank=True)
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
    lot_seed = models.PositiveIntegerField(
        _("seed for draws and lots"), default=new_seed, help_text=_("Makes draws and tie-breaks by lot reproducible.")
    )
    standings_public = models.BooleanField(
        _("publish standings"), default=False, help_text=_("Anyone with the link may see the standings.")
    )
    directors = models.ManyToManyField(
        settings.AUTH_USER_MODEL, verbose_name=_("directors"), blank=True, related_name="directed_tournaments"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    objects = TournamentQuerySet.as_manager()

    class Meta:
        ordering = ["-date", "name"]
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")

    def __str__(self) -> str:
        return f"{self.name} ({self.date:%Y-%m-%d})"

    def get_absolute_url(self) -> str:
        return reverse("tournaments:detail", args=[self.pk])

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
        """The money rules as :class:`scoring.fees.FeeRules` (three queries, or none when prefetched)."""
        from scoring.fees import FeeRules

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
            lost_game_steps=tuple((step.from_lost_game, step.amount) for step in self.lost_game_fees.all()),
            passed_out_steps={size: tuple(steps) for size, steps in passed.items()},
            table_money=money,
        )

    def prize_rules(self) -> tuple:
        """The prize table as :class:`scoring.fees.PrizeRule` lines (one query, none when prefetched)."""
        return tuple(prize.rule() for prize in self.prizes.all())

    def lost_game_fee(self, nth_lost: int) -> Decimal:
        """The fee for a player's nth lost game on one sheet, from the step table."""
        fee = Decimal("0")
        for step in self.lost_game_fees.all():
            if step.from_lost_game <= nth_lost:
                fee = step.amount
        return fee


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

    Paid out by :func:`scoring.fees.prize_list`; the pool is the tournament's
    ``prize_pool_percent`` of what the fees leave after the table money.
    """

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="prizes")
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
            models.UniqueConstraint(fields=["tournament", "place"], name="prize_place_unique"),
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
        from scoring.fees import PrizeRule

        return PrizeRule(self.place, self.percent, self.amount)


class Team(models.Model):
    """Team-mates are never drawn to one table (DOMAIN, teams)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="teams")
    name = models.CharField(_("name"), max_length=120)

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


class Series(models.Model):
    class Status(models.TextChoices):
        DRAWN = "drawn", _("drawn")
        RUNNING = "running", _("running")
        FINISHED = "finished", _("finished")

    class Method(models.TextChoices):
        RANDOM = "random", _("at random")
        SEEDED = "seeded", _("seeded by the standings")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="series")
    number = models.PositiveSmallIntegerField(_("series"), validators=[MinValueValidator(1)])
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.DRAWN)
    method = models.CharField(_("draw"), max_length=10, choices=Method.choices, default=Method.RANDOM)
    seed = models.PositiveIntegerField(_("draw seed"), default=0)
    repeat_meetings = models.PositiveIntegerField(
        _("repeat meetings"), default=0, help_text=_("Pairs of players drawn together who already met.")
    )
    club_meetings = models.PositiveIntegerField(_("club-mates together"), default=0)
    drawn_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "number"]
        verbose_name = _("series")
        verbose_name_plural = _("series")
        constraints = [models.UniqueConstraint(fields=["tournament", "number"], name="series_number_unique")]

    def __str__(self) -> str:
        return _("%(tournament)s, series %(number)s") % {"tournament": self.tournament.name, "number": self.number}


class TableQuerySet(models.QuerySet):
    def lock(self, pk) -> None:
        """Lock one table's row until the transaction ends (SELECT ... FOR UPDATE): its writers queue.

        Unordered on purpose: the default ordering (series, then tournament) would join
        those rows and lock them too, so every table of the tournament would wait for
        every other on PostgreSQL. ``pk`` may be a subquery. SQLite's IMMEDIATE
        transactions serialise all writers anyway.
        """
        list(self.select_for_update().filter(pk=pk).order_by().values_list("pk", flat=True))


class Table(models.Model):
    series = models.ForeignKey(Series, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField(_("table"))
    size = models.PositiveSmallIntegerField(_("players"), choices=[(s, str(s)) for s in TABLE_SIZES])
    token = models.CharField(max_length=32, unique=True, default=new_token, editable=False)
    #: The link of the table's second list (DOMAIN: two lists are kept, seats 1 and 3):
    #: it opens that list and nothing else (scoring.lists).
    control_token = models.CharField(max_length=32, unique=True, default=new_token, editable=False)

    objects = TableQuerySet.as_manager()

    class Meta:
        ordering = ["series", "number"]
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        constraints = [
            models.UniqueConstraint(fields=["series", "number"], name="table_number_unique"),
            models.CheckConstraint(condition=Q(size__in=TABLE_SIZES), name="table_size_3_or_4"),
        ]

    def __str__(self) -> str:
        return _("Table %(number)s") % {"number": self.number}

    @property
    def deals(self) -> int:
        return self.series.tournament.deals_per_table(self.size)

    def entry_url(self) -> str:
        return reverse("tables:sheet", args=[self.token])

    def control_url(self) -> str:
        """The second list's link: the same pages, keeping a list that is only compared."""
        return reverse("tables:sheet", args=[self.control_token])


class Seat(models.Model):
    """A player's seat; seat 1 deals first (3.2.1). ``series`` is stored again so the
    database itself can refuse a player sitting twice in one series."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    series = models.ForeignKey(Series, on_delete=models.CASCADE, related_name="seats")
    number = models.PositiveSmallIntegerField(_("seat"), validators=[MinValueValidator(1), MaxValueValidator(4)])
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seats")

    class Meta:
        ordering = ["table", "number"]
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="seat_number_unique_per_table"),
            models.UniqueConstraint(fields=["series", "player"], name="player_once_per_series"),
            models.CheckConstraint(condition=Q(number__gte=1, number__lte=4), name="seat_number_1_to_4"),
        ]

    def __str__(self) -> str:
        return f"{self.table} / {self.number}: {self.player.name}"


class LoginAttempt(models.Model):
    """One login attempt counted against a key: ``user:`` or ``ip:`` and the sha256 of the
    case-folded username or of the client address (tournaments/throttle.py).

    A row is written *before* the password is checked, so parallel guesses count each
    other; it stays as a failure unless the login succeeds. Rows older than the window
    are pruned as new attempts arrive. No verbose names or admin: the digests mean
    nothing to a reader, and ``manage.py unlocklogin`` is the office's tool.
    """

    key = models.CharField(max_length=72)
    created = models.DateTimeField(db_index=True)

    class Meta:
        indexes = [models.Index(fields=["key", "created"], name="login_attempt_key_created")]

    def __str__(self) -> str:
        return f"{self.key[:13]} {self.created:%Y-%m-%d %H:%M:%S}"
