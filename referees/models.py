"""Referees, disputes and audited corrections.

A result is only worth something if nobody can quietly change it:

- a table's sheet is confirmed by every player (a PIN each) or marked signed on paper,
  and is then locked (5.5.3: corrections only with every participant's agreement; the
  sign-off is the sheet's, :mod:`signoff.confirm`);
- after that, or once the series is finished, only a referee changes a game, through a
  :class:`Correction` that keeps the game before and after, who, when, why and the
  dispute it settles (4.5.10: a referee judges a claim). Nothing is deleted: a voided game
  stays, marked void and scoring nothing.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from core.name_checks import validate_name
from tournaments.hooks import account_name

from . import paragraphs


class RefereeAssignmentQuerySet(models.QuerySet):
    def tournaments_of(self, user):
        from tournaments.models import Tournament

        if not user.is_authenticated:
            return Tournament.objects.none()
        return Tournament.objects.filter(referee_assignments__user=user).distinct()


class RefereeAssignment(models.Model):
    """A user who referees one tournament (its directors may do everything a referee may)."""

    tournament = models.ForeignKey(
        "tournaments.Tournament", on_delete=models.CASCADE, related_name="referee_assignments"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("referee"),
        on_delete=models.CASCADE,
        related_name="referee_assignments",
    )
    assigned_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    assigned_at = models.DateTimeField(auto_now_add=True)

    objects = RefereeAssignmentQuerySet.as_manager()

    class Meta:
        ordering = ["tournament", "user__username"]
        verbose_name = _("referee")
        verbose_name_plural = _("referees")
        constraints = [models.UniqueConstraint(fields=["tournament", "user"], name="referee_once_per_tournament")]

    def __str__(self) -> str:
        return f"{self.user} ({self.tournament})"


class Dispute(models.Model):
    """A claim about a table (and perhaps one deal), judged by a referee (4.5.10)."""

    class Status(models.TextChoices):
        OPEN = "open", _("open")
        DECIDED = "decided", _("decided")
        WITHDRAWN = "withdrawn", _("withdrawn")

    class Effect(models.TextChoices):
        STANDS = "stands", _("the result stands")
        CORRECTED = "corrected", _("a game was corrected")
        VOIDED = "voided", _("a game was voided")

    table = models.ForeignKey("tournaments.Table", on_delete=models.CASCADE, related_name="disputes")
    game = models.ForeignKey(
        "scoring.Game",
        verbose_name=_("deal"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="disputes",
    )
    description = models.TextField(_("what happened"), max_length=2000)
    raised_by = models.CharField(_("raised by"), max_length=150, validators=[validate_name])
    raised_by_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    raised_at = models.DateTimeField(_("raised at"), auto_now_add=True)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.OPEN)
    paragraph = models.CharField(
        _("paragraph"), max_length=8, blank=True, choices=[(n, n) for n in paragraphs.PARAGRAPHS]
    )
    decision = models.TextField(_("decision"), blank=True, max_length=4000)
    effect = models.CharField(_("effect"), max_length=10, choices=Effect.choices, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("decided by"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    decided_at = models.DateTimeField(_("decided at"), null=True, blank=True)

    class Meta:
        ordering = ["raised_at"]
        verbose_name = _("dispute")
        verbose_name_plural = _("disputes")
        constraints = [
            models.CheckConstraint(
                condition=Q(status="open") | Q(decided_at__isnull=False), name="dispute_closed_has_a_time"
            ),
            models.CheckConstraint(
                condition=~Q(status="decided") | (~Q(paragraph="") & ~Q(effect="") & ~Q(decision="")),
                name="dispute_decision_cites_a_paragraph",
            ),
        ]
        indexes = [models.Index(fields=["status", "raised_at"], name="dispute_status_age")]

    def __str__(self) -> str:
        return _("Dispute %(pk)s, %(table)s") % {"pk": self.pk, "table": self.table}

    @property
    def paragraph_label(self) -> str:
        return paragraphs.label(self.paragraph) if self.paragraph else ""


class Correction(models.Model):
    """One change of a stored game by a referee: before and after, who, when, why.

    ``before`` and ``after`` are snapshots of the game's entered and computed fields
    (:data:`referees.corrections.SNAPSHOT_FIELDS`); the engine valued the new version
    as it was stored (scoring.services), and the standings follow because they add up
    stored games.
    """

    class Kind(models.TextChoices):
        EDIT = "edit", _("corrected")
        VOID = "void", _("voided")
        RESTORE = "restore", _("restored")
        #: A deal the table missed, added to a confirmed or finished sheet: its ``before`` is empty.
        ADD = "add", _("added")

    game = models.ForeignKey("scoring.Game", on_delete=models.PROTECT, related_name="corrections")
    dispute = models.ForeignKey(
        Dispute, verbose_name=_("dispute"), null=True, blank=True, on_delete=models.PROTECT, related_name="corrections"
    )
    kind = models.CharField(_("kind"), max_length=8, choices=Kind.choices, default=Kind.EDIT)
    made_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("by"), on_delete=models.PROTECT, related_name="+"
    )
    made_at = models.DateTimeField(_("at"), auto_now_add=True)
    reason = models.TextField(_("why"), max_length=2000)
    before = models.JSONField()
    after = models.JSONField()
    score_before = models.SmallIntegerField()
    score_after = models.SmallIntegerField()
    version_before = models.PositiveIntegerField()
    version_after = models.PositiveIntegerField()

    class Meta:
        ordering = ["-made_at", "-pk"]
        verbose_name = _("correction")
        verbose_name_plural = _("corrections")

    def __str__(self) -> str:
        return f"{self.game} v{self.version_before}->v{self.version_after}"

    @property
    def made_by_name(self) -> str:
        """Who, as a person reads it (a league hall's upload, not its internal account)."""
        return account_name(self.made_by)

    @property
    def score_change(self) -> int:
        return self.score_after - self.score_before

    @property
    def changed(self) -> list[tuple[str, object, object]]:
        return changed_fields(self.before, self.after)

    @property
    def changed_display(self) -> list[tuple[str, str, str]]:
        """The changes for people: the game's field labels and displayed values."""
        return [
            (str(_game_field(name).verbose_name), _shown(name, old), _shown(name, new))
            for name, old, new in self.changed
        ]


class Reopening(models.Model):
    """A referee re-opened a confirmed sheet (5.5.3): the players confirm it again. The
    sign-off it undid is kept here, with who, when and why."""

    table = models.ForeignKey("tournaments.Table", on_delete=models.CASCADE, related_name="reopenings")
    made_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("by"), on_delete=models.PROTECT, related_name="+"
    )
    made_at = models.DateTimeField(_("at"), auto_now_add=True)
    reason = models.TextField(_("why"), max_length=2000)
    #: The sign-off undone: when, how (PINs or paper), by whom, the sheet's fingerprint.
    signoff = models.JSONField()

    class Meta:
        ordering = ["-made_at", "-pk"]
        verbose_name = _("re-opened sheet")
        verbose_name_plural = _("re-opened sheets")

    def __str__(self) -> str:
        return f"{self.table} {self.made_at:%Y-%m-%d %H:%M}"

    @property
    def made_by_name(self) -> str:
        """Who, as a person reads it (a league hall's upload, not its internal account)."""
        return account_name(self.made_by)


def _game_field(name: str):
    from scoring.models import Game

    return Game._meta.get_field(name)


def _shown(name: str, value: object) -> str:
    if value is None or value == "":
        return "\u2013"  # an en dash: nothing entered
    if isinstance(value, bool):
        return str(_("yes") if value else _("no"))
    choices = dict(_game_field(name).flatchoices)
    return str(choices.get(value, value))


def changed_fields(before: dict, after: dict) -> list[tuple[str, object, object]]:
    """The fields a correction changed, in snapshot order: (name, before, after)."""
    return [(name, before.get(name), after.get(name)) for name in after if before.get(name) != after.get(name)]
