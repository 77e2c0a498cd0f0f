"""A ranking over many tournaments (Jahreswertung, cup): its rules, its tournaments, the
results read from them, the people matched across them, and the computed lines.

The rules are fields the director edits, never constants (DOMAIN, "Annual and cup
rankings"); the arithmetic is the engine's (:mod:`skat.yearly`). ``RankingResult`` and
``RankingLine`` are caches: the first holds each tournament's results as read, the
second the computed ranking, so its pages read one page of rows whatever the size.
"""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from core.name_checks import validate_name
from skat.yearly import RankingRuleError, Rules


def rule_text(error: RankingRuleError) -> str:
    """The engine's refusal in the reader's language (its English if a translation does not fit)."""
    try:
        return gettext(error.template).format(**error.params)
    except (KeyError, IndexError, ValueError):
        return error.message


def field_label(name: str) -> str:
    """A rule's label as the rules page shows it ("planned": "of M planned")."""
    labels = {"tie_breaks": "tie_break_1", "place_points": "counts", "tournaments": None}
    name = labels.get(name, name)
    if name is None:
        return gettext("tournaments")
    return str(Ranking._meta.get_field(name).verbose_name)


def table_of_points(rows) -> tuple[int, ...]:
    """The rows (place, points) as the engine's table: index 0 is place 1, a place the
    director left out gets 0."""
    points = dict(rows)
    return tuple(points.get(place, 0) for place in range(1, max(points, default=0) + 1))


class RankingQuerySet(models.QuerySet):
    def for_user(self, user) -> RankingQuerySet:
        """Rankings the user directs (all of them for a superuser)."""
        if not user.is_authenticated:
            return self.none()
        if user.is_superuser:
            return self
        return self.filter(directors=user)


class Ranking(models.Model):
    class Counts(models.TextChoices):
        RATING = "rating", _("rating (extended Seeger-Fabian)")
        GAME_POINTS = "game_points", _("game points")
        PLACE_POINTS = "place_points", _("points per place (table below)")

    class Unit(models.TextChoices):
        TOURNAMENT = "tournament", _("each tournament")
        SERIES = "series", _("each series")

    class Aggregate(models.TextChoices):
        SUM = "sum", _("sum")
        AVERAGE = "average", _("average")

    class TieBreak(models.TextChoices):
        COUNTED = "counted", _("more counted results")
        PLAYED = "played", _("more results played")
        BEST = "best", _("higher best result")
        LATEST = "latest", _("higher result in the latest held")

    name = models.CharField(_("name"), max_length=160, validators=[validate_name])
    season = models.CharField(_("season"), max_length=40, blank=True, help_text=_("e.g. 2027 or 2026/27"))
    directors = models.ManyToManyField(
        settings.AUTH_USER_MODEL, verbose_name=_("directors"), blank=True, related_name="directed_rankings"
    )
    public = models.BooleanField(_("publish"), default=False, help_text=_("Anyone with the link may see the ranking."))
    counts = models.CharField(_("what counts"), max_length=20, choices=Counts.choices, default=Counts.RATING)
    unit = models.CharField(_("one result is"), max_length=20, choices=Unit.choices, default=Unit.TOURNAMENT)
    aggregate = models.CharField(_("results added as"), max_length=10, choices=Aggregate.choices, default="sum")
    best = models.IntegerField(
        _("best N count"),
        null=True,
        blank=True,
        help_text=_("Empty: every result counts; else the others are dropped."),
    )
    planned = models.IntegerField(
        _("of M planned"), null=True, blank=True, help_text=_("The results the season plans to hold (optional).")
    )
    minimum = models.IntegerField(_("minimum results to be ranked"), default=0)
    penalty = models.IntegerField(
        _("penalty per missed result"), default=0, help_text=_("Taken off the sum or average for each missing result.")
    )
    tie_break_1 = models.CharField(_("first tie-break"), max_length=10, choices=TieBreak.choices, blank=True)
    tie_break_2 = models.CharField(_("second tie-break"), max_length=10, choices=TieBreak.choices, blank=True)
    tie_break_3 = models.CharField(_("third tie-break"), max_length=10, choices=TieBreak.choices, blank=True)
    #: When the lines were last computed (None: never); the pages say it.
    computed_at = models.DateTimeField(null=True, blank=True, editable=False)
    #: Why the last computation was refused (empty: it was not).
    problem = models.CharField(max_length=300, blank=True, editable=False)
    #: Doubtful matches waiting for the director's word, as of the last computation.
    doubtful = models.PositiveIntegerField(default=0, editable=False)
    #: Those pairs, [record, record, why] (rankings.matching), and the merges a later
    #: tournament contradicts, [record, record]: the who-is-who page reads them here.
    doubtful_pairs = models.JSONField(default=list, editable=False)
    contradicted_pairs = models.JSONField(default=list, editable=False)
    #: Changes that call for a computation, counted (a tournament added, changed or taken
    #: out, a result read again, the rules, a decision); ``computed`` is the count the
    #: stored lines are of. More wanted than computed: the lines are being updated.
    wanted = models.PositiveIntegerField(default=0, editable=False)
    computed = models.PositiveIntegerField(default=0, editable=False)
    #: Who computes the ranking now (a process and thread, rankings.background) and until
    #: when the claim holds: one computation at a time across the office's processes, and
    #: a killed process's claim runs out.
    claimed_by = models.CharField(max_length=80, blank=True, editable=False)
    claimed_until = models.DateTimeField(null=True, blank=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)

    objects = RankingQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "name"]
        verbose_name = _("ranking")
        verbose_name_plural = _("rankings")

    def __str__(self) -> str:
        return f"{self.name} {self.season}".strip()

    def get_absolute_url(self) -> str:
        return reverse("rankings:ranking", args=[self.pk])

    def is_director(self, user) -> bool:
        return user.is_authenticated and (user.is_superuser or self.directors.filter(pk=user.pk).exists())

    @property
    def updating(self) -> bool:
        """Whether a change waits for (or is in) a computation: the lines shown are older
        (none yet when ``computed_at`` is None)."""
        return self.wanted > self.computed

    def rules(self, place_points: tuple[int, ...] | None = None) -> Rules:
        """The engine's rules from these fields and (read unless given) the table of points per place."""
        if place_points is None:
            place_points = table_of_points(self.place_points.values_list("place", "points"))
        tie_breaks = tuple(t for t in (self.tie_break_1, self.tie_break_2, self.tie_break_3) if t)
        return Rules(
            counts=self.counts,
            unit=self.unit,
            aggregate=self.aggregate,
            best=self.best,
            planned=self.planned,
            minimum=self.minimum,
            penalty=self.penalty,
            place_points=place_points,
            tie_breaks=tie_breaks,
        )

    def check_rules(self, place_points: tuple[int, ...] | None = None) -> None:
        """Refuse rules the engine cannot compute, under the field that is wrong."""
        try:
            self.rules(place_points).check()
        except RankingRuleError as error:
            field = {"tie_breaks": "tie_break_1", "place_points": "counts"}.get(error.field, error.field)
            raise ValidationError({field: rule_text(error)}) from None


class PlacePoints(models.Model):
    """One row of the ranking's table of points per place (when points per place count)."""

    ranking = models.ForeignKey(Ranking, on_delete=models.CASCADE, related_name="place_points")
    place = models.PositiveSmallIntegerField(_("place"), validators=[MinValueValidator(1), MaxValueValidator(10000)])
    points = models.PositiveIntegerField(_("points"), validators=[MaxValueValidator(1_000_000)])

    class Meta:
        ordering = ["place"]
        verbose_name = _("points per place")
        verbose_name_plural = _("points per place")
        constraints = [
            models.UniqueConstraint(
                fields=["ranking", "place"],
                name="rankings_place_once",
                violation_error_message=_("Each place has one row."),
            )
        ]

    def __str__(self) -> str:
        return f"{self.place}: {self.points}"


class RankingTournament(models.Model):
    """A tournament of the ranking; its results are read into :class:`RankingResult`."""

    ranking = models.ForeignKey(Ranking, on_delete=models.CASCADE, related_name="entries")
    tournament = models.ForeignKey(
        "tournaments.Tournament", verbose_name=_("tournament"), on_delete=models.CASCADE, related_name="+"
    )
    added_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    added_at = models.DateTimeField(auto_now_add=True)
    #: When its results were last read (None: not yet).
    read_at = models.DateTimeField(null=True, blank=True)
    #: The tournament's results mark (scoring) when its results were read; None: to be
    #: read again. A mark moved since (a correction) has them read again in the background.
    read_mark = models.BigIntegerField(null=True, blank=True, editable=False)
    #: The numbers of its series with a result, as read: the rules are checked against
    #: them (more held than planned) without reading every result.
    held = models.JSONField(default=list, editable=False)

    class Meta:
        ordering = ["tournament__date", "tournament__name", "pk"]
        verbose_name = _("tournament of a ranking")
        verbose_name_plural = _("tournaments of a ranking")
        constraints = [
            models.UniqueConstraint(
                fields=["ranking", "tournament"],
                name="rankings_tournament_once",
                violation_error_message=_("This tournament is in the ranking already."),
            )
        ]

    def __str__(self) -> str:
        return f"{self.ranking_id}: {self.tournament_id}"


class RankingResult(models.Model):
    """A player's result in one tournament of the ranking, as read: his place, his
    category's name there, and per series played [number, rating, game points, place]."""

    entry = models.ForeignKey(RankingTournament, on_delete=models.CASCADE, related_name="results")
    player = models.ForeignKey("tournaments.Player", on_delete=models.CASCADE, related_name="+")
    place = models.PositiveIntegerField()
    category = models.CharField(max_length=60, blank=True)
    series = models.JSONField(default=list)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["entry", "player"], name="rankings_result_once")]

    def __str__(self) -> str:
        return f"{self.entry_id}: {self.player_id}"


class PersonDecision(models.Model):
    """A director's word on two player records of the ranking: one person (a merge) or
    two people (a doubtful match answered). Audited: who, when, why; undone, not deleted."""

    ranking = models.ForeignKey(Ranking, on_delete=models.CASCADE, related_name="decisions")
    player = models.ForeignKey("tournaments.Player", on_delete=models.CASCADE, related_name="+")
    other = models.ForeignKey("tournaments.Player", on_delete=models.CASCADE, related_name="+")
    same = models.BooleanField(_("one person"))
    reason = models.CharField(_("why"), max_length=300)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("by"), null=True, on_delete=models.SET_NULL, related_name="+"
    )
    decided_at = models.DateTimeField(_("when"), auto_now_add=True)
    undone_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("undone by"), null=True, on_delete=models.SET_NULL, related_name="+"
    )
    undone_at = models.DateTimeField(_("undone"), null=True, blank=True)

    class Meta:
        ordering = ["-decided_at", "-pk"]
        verbose_name = _("decision on two player records")
        verbose_name_plural = _("decisions on player records")

    def __str__(self) -> str:
        return f"{self.player_id} {'=' if self.same else '!='} {self.other_id}"


class RankingLine(models.Model):
    """One line of the computed ranking (``category`` empty: the overall ranking)."""

    ranking = models.ForeignKey(Ranking, on_delete=models.CASCADE, related_name="lines")
    category = models.CharField(max_length=60, blank=True)
    position = models.PositiveIntegerField()
    place = models.PositiveIntegerField(null=True)
    shared = models.BooleanField(default=False)
    #: The player record the line is shown as (the first of a merged person's records).
    player = models.ForeignKey("tournaments.Player", on_delete=models.CASCADE, related_name="+")
    name = models.CharField(max_length=120)
    club = models.CharField(max_length=120, blank=True)
    search_key = models.CharField(max_length=400, blank=True)
    value = models.CharField(max_length=24)
    played = models.PositiveIntegerField()
    counted = models.PositiveIntegerField()
    missed = models.PositiveIntegerField()
    penalty = models.PositiveIntegerField()
    decided_by = models.CharField(max_length=10, blank=True)
    #: Every result: [ranking tournament id, series or None, value, counted (bool)].
    results = models.JSONField(default=list)

    class Meta:
        ordering = ["position"]
        indexes = [
            models.Index(fields=["ranking", "category", "position"], name="rankings_line_order"),
            # A player's lines (his page): every category's, without scanning the ranking.
            models.Index(fields=["ranking", "player"], name="rankings_line_player"),
        ]
        constraints = [
            models.UniqueConstraint(fields=["ranking", "category", "player"], name="rankings_line_once"),
        ]

    def __str__(self) -> str:
        return f"{self.position}. {self.name}"
