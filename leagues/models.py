"""A league season: the league and its rule, groups (Staffeln), teams with their rosters,
match days (each a tournament of the match day's teams at a host), substitutions, the
league manager's audited steps and the hosts' publications (README, "Leagues").

The rule lives in :mod:`skat.league`; what it is for one league (ties, tie-break,
series per match day, the binding period) are this league's fields, never constants.
"""

from __future__ import annotations

import datetime
import secrets

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.db.models.functions import Lower
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from core.name_checks import validate_name
from tournaments.models import Club, Player, Tournament, new_seed

#: Roster positions: 1-4 the regular team, 5-8 its reserves (DOMAIN, "Teams and leagues").
POSITIONS = 8
REGULARS = 4


class LeagueQuerySet(models.QuerySet):
    def managed_by(self, user) -> LeagueQuerySet:
        """Leagues the user manages (all of them for a superuser)."""
        if not user.is_authenticated:
            return self.none()
        return self if user.is_superuser else self.filter(managers=user)


class League(models.Model):
    class Tie(models.TextChoices):
        SPLIT = "split", _("equal game points share the point (1/2 each)")
        BOTH = "both", _("equal game points give the point to both")

    class TieBreak(models.TextChoices):
        LOT = "lot", _("by lot (reproducible)")
        BEST_SERIES = "best_series", _("the better best series, then by lot")

    name = models.CharField(_("name"), max_length=120, validators=[validate_name])
    season = models.CharField(_("season"), max_length=20, help_text=_("e.g. 2026"), validators=[validate_name])
    tie = models.CharField(_("equal game points"), max_length=10, choices=Tie.choices, default=Tie.SPLIT)
    tie_break = models.CharField(_("tie-break"), max_length=12, choices=TieBreak.choices, default=TieBreak.LOT)
    series_per_matchday = models.PositiveSmallIntegerField(
        _("series per match day"), default=3, validators=[MinValueValidator(1), MaxValueValidator(6)]
    )
    rounds_per_series = models.PositiveSmallIntegerField(
        _("rounds per series"), default=12, validators=[MinValueValidator(1), MaxValueValidator(30)]
    )
    binding_days = models.PositiveSmallIntegerField(
        _("binding after (days)"),
        default=14,
        help_text=_("A checked match day becomes binding this many days after the check."),
    )
    lot_seed = models.PositiveIntegerField(_("seed for the lot"), default=new_seed)
    published = models.BooleanField(_("publish the tables"), default=False)
    managers = models.ManyToManyField(
        settings.AUTH_USER_MODEL, verbose_name=_("league managers"), blank=True, related_name="managed_leagues"
    )

    objects = LeagueQuerySet.as_manager()

    class Meta:
        ordering = ["-season", "name"]
        verbose_name = _("league")
        verbose_name_plural = _("leagues")
        constraints = [
            models.UniqueConstraint(
                Lower("name"),
                "season",
                name="league_name_season_unique",
                violation_error_message=_("This league has this season already."),
            )
        ]

    def __str__(self) -> str:
        return f"{self.name} {self.season}"

    def is_manager(self, user) -> bool:
        return user.is_authenticated and (user.is_superuser or self.managers.filter(pk=user.pk).exists())


class Group(models.Model):
    """A Staffel: the teams that play for one table."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="groups")
    name = models.CharField(_("name"), max_length=80, validators=[validate_name])

    class Meta:
        ordering = ["league", "name"]
        verbose_name = _("group")
        verbose_name_plural = _("groups")
        constraints = [
            models.UniqueConstraint(
                "league",
                Lower("name"),
                name="group_name_unique",
                violation_error_message=_("The league has a group of this name already."),
            )
        ]

    def __str__(self) -> str:
        return f"{self.league}, {self.name}"


class LeagueTeam(models.Model):
    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="teams")
    name = models.CharField(_("name"), max_length=120, validators=[validate_name])
    club = models.ForeignKey(Club, verbose_name=_("club"), null=True, blank=True, on_delete=models.SET_NULL)
    captain = models.ForeignKey(
        Player, verbose_name=_("captain"), null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["group", "name"]
        verbose_name = _("league team")
        verbose_name_plural = _("league teams")
        constraints = [
            models.UniqueConstraint(
                "group",
                Lower("name"),
                name="league_team_name_unique",
                violation_error_message=_("The group has a team of this name already."),
            )
        ]

    def __str__(self) -> str:
        return self.name

    def __hash__(self) -> int:
        """A team keys every series' result (skat.league): Model.__hash__ asks the primary
        key's fields each time, ten thousand times on a national league's group pages."""
        if self.pk is None:
            raise TypeError("Model instances without primary key value are unhashable")
        return hash(self.pk)


class RosterEntry(models.Model):
    team = models.ForeignKey(LeagueTeam, on_delete=models.CASCADE, related_name="roster")
    player = models.ForeignKey(Player, verbose_name=_("player"), on_delete=models.PROTECT, related_name="rosters")
    position = models.PositiveSmallIntegerField(
        _("position"), validators=[MinValueValidator(1), MaxValueValidator(POSITIONS)]
    )

    class Meta:
        ordering = ["team", "position"]
        verbose_name = _("roster entry")
        verbose_name_plural = _("roster")
        constraints = [
            models.UniqueConstraint(fields=["team", "position"], name="roster_position_unique"),
            models.UniqueConstraint(fields=["team", "player"], name="roster_player_unique"),
            models.CheckConstraint(condition=Q(position__gte=1, position__lte=POSITIONS), name="roster_position_1_8"),
        ]

    def __str__(self) -> str:
        return f"{self.position}. {self.player.name}"

    @property
    def reserve(self) -> bool:
        return self.position > REGULARS


class Host(models.Model):
    """A club that hosts match days and publishes them from its hall laptop with its own token.

    Only the SHA-256 of the token is kept; the token is shown once, when it is made.
    """

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="hosts")
    name = models.CharField(_("name"), max_length=120, validators=[validate_name])
    token_digest = models.CharField(max_length=64, unique=True, editable=False)
    active = models.BooleanField(_("may publish"), default=True)

    class Meta:
        ordering = ["league", "name"]
        verbose_name = _("host")
        verbose_name_plural = _("hosts")
        constraints = [
            models.UniqueConstraint(
                "league",
                Lower("name"),
                name="host_name_unique",
                violation_error_message=_("The league has a host of this name already."),
            )
        ]

    def __str__(self) -> str:
        return self.name


def new_match_day_key() -> str:
    """A match day's key: made once on the league server, kept by every hall that imports it."""
    return secrets.token_hex(16)


class MatchDay(models.Model):
    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="match_days")
    #: The match day's identity between the league server and the halls (packages app):
    #: the hall's copy has the server's key, so its publication names its match day.
    key = models.CharField(_("key"), max_length=32, unique=True, default=new_match_day_key, editable=False)
    number = models.PositiveSmallIntegerField(_("match day"), validators=[MinValueValidator(1)])
    date = models.DateField(_("date"))
    host = models.ForeignKey(Host, verbose_name=_("host"), null=True, blank=True, on_delete=models.PROTECT)
    teams = models.ManyToManyField(LeagueTeam, verbose_name=_("teams"), related_name="match_days")
    tournament = models.OneToOneField(
        Tournament, null=True, blank=True, on_delete=models.SET_NULL, related_name="match_day"
    )
    checked_at = models.DateTimeField(_("checked at"), null=True, blank=True)
    checked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    #: When the check makes it binding, computed at the check from the league's period then:
    #: changing "binding after (days)" later moves no deadline already set (5.5.3).
    binding_due = models.DateTimeField(_("binding from"), null=True, blank=True)
    binding_at = models.DateTimeField(_("binding since"), null=True, blank=True)
    binding_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        ordering = ["group", "number", "date"]
        verbose_name = _("match day")
        verbose_name_plural = _("match days")
        constraints = [
            models.CheckConstraint(
                condition=Q(binding_at__isnull=True) | Q(checked_at__isnull=False), name="match_day_binding_checked"
            )
        ]

    def __str__(self) -> str:
        return _("Match day %(number)s, %(group)s") % {"number": self.number, "group": self.group.name}

    def binding_since(self, now: datetime.datetime | None = None) -> datetime.datetime | None:
        """When the result became binding: marked so, or the deadline stored at the check
        (the league's period as it was then) has passed."""
        if self.binding_at is not None:
            return self.binding_at
        if self.checked_at is None or self.binding_due is None:
            return None
        return self.binding_due if self.binding_due <= (now or timezone.now()) else None

    @property
    def binding(self) -> bool:
        return self.binding_since() is not None


class Substitution(models.Model):
    """A reserve comes in for a player between two series (DOMAIN: substitutions happen
    between series); the player who leaves does not return that match day."""

    match_day = models.ForeignKey(MatchDay, on_delete=models.CASCADE, related_name="substitutions")
    team = models.ForeignKey(LeagueTeam, on_delete=models.CASCADE, related_name="+")
    before_series = models.PositiveSmallIntegerField(_("before series"), validators=[MinValueValidator(2)])
    player_out = models.ForeignKey(Player, verbose_name=_("out"), on_delete=models.PROTECT, related_name="+")
    player_in = models.ForeignKey(Player, verbose_name=_("in"), on_delete=models.PROTECT, related_name="+")
    made_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    made_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["match_day", "before_series", "pk"]
        verbose_name = _("substitution")
        verbose_name_plural = _("substitutions")

    def __str__(self) -> str:
        return f"{self.before_series}: {self.player_in.name} / {self.player_out.name}"


class LeagueEvent(models.Model):
    """The league manager's audit trail of a match day: line-ups, substitutions, the check,
    binding, publications. Game corrections are the referees' audited corrections."""

    class Kind(models.TextChoices):
        LINE_UP = "line_up", _("line-up")
        SUBSTITUTION = "substitution", _("substitution")
        CHECKED = "checked", _("checked")
        BINDING = "binding", _("binding")
        PUBLISHED = "published", _("published by the host")
        TEAM_CHANGE = "team_change", _("team changed")
        UNCHECKED = "unchecked", _("check withdrawn")
        REPUBLISHED = "republished", _("corrected by the host's publication")
        REJECTED = "rejected", _("publication removed")

    match_day = models.ForeignKey(MatchDay, on_delete=models.CASCADE, related_name="events")
    kind = models.CharField(_("what"), max_length=14, choices=Kind.choices)
    note = models.CharField(_("note"), max_length=500, blank=True)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    at = models.DateTimeField(_("when"), auto_now_add=True)

    class Meta:
        ordering = ["match_day", "at", "pk"]
        verbose_name = _("league event")
        verbose_name_plural = _("league events")

    def __str__(self) -> str:
        return f"{self.kind}: {self.note}"


class Publication(models.Model):
    """One tournament file a host sent; ``digest`` (SHA-256 of its cells) makes a resend a no-op."""

    host = models.ForeignKey(Host, on_delete=models.PROTECT, related_name="publications")
    digest = models.CharField(max_length=64)
    match_day = models.ForeignKey(MatchDay, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    tournament = models.ForeignKey(Tournament, null=True, on_delete=models.SET_NULL, related_name="+")
    received_at = models.DateTimeField(auto_now_add=True)
    #: The league manager removed it (its results no longer count): when, who and why.
    rejected_at = models.DateTimeField(_("removed at"), null=True, blank=True)
    rejected_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    rejection = models.CharField(_("reason"), max_length=500, blank=True)

    class Meta:
        ordering = ["-received_at"]
        verbose_name = _("publication")
        verbose_name_plural = _("publications")
        constraints = [models.UniqueConstraint(fields=["host", "digest"], name="publication_once_per_file")]

    def __str__(self) -> str:
        return f"{self.host}: {self.digest[:12]}"
