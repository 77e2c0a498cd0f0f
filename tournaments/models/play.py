"""Series, tables and seats: where everybody sits (3.2.1, 3.2.7)."""

from __future__ import annotations

from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import connections, models
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from skat.sheet import TABLE_SIZES

from .defaults import new_token
from .people import Player
from .tournament import Tournament


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
        every other on PostgreSQL. ``pk`` may be a subquery. SQLite has no row locks
        and needs none: its IMMEDIATE transactions (settings.DATABASES) take the write
        lock when they begin, so every writer waits for the one before; the query is
        not sent there (a round trip on every deal entered).
        """
        if not connections[self.db].features.has_select_for_update:
            return
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
        return reverse("table:sheet", args=[self.token])

    def control_url(self) -> str:
        """The second list's link: the same pages, keeping a list that is only compared."""
        return reverse("table:sheet", args=[self.control_token])


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
