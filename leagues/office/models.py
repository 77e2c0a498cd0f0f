"""The league office's records: each grant and withdrawal of a league right (who, when,
which league, by whom) and what the match report adds to the match day: the captains'
remarks and protests, and where and when it was signed. Every row is kept: a correction
is a new row, so the record shows what was said and changed, and by whom."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from leagues.models import League, LeagueTeam, MatchDay


class RightChange(models.Model):
    """A league right given or taken: manage one league, or set up new leagues (league None)."""

    class Action(models.TextChoices):
        GRANTED = "granted", _("granted")
        REVOKED = "revoked", _("revoked")

    class Right(models.TextChoices):
        MANAGER = "manager", _("league manager")
        NEW_LEAGUES = "new_leagues", _("may set up new leagues")

    action = models.CharField(_("what"), max_length=8, choices=Action.choices)
    right = models.CharField(_("right"), max_length=12, choices=Right.choices)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    #: Kept as it was: the account or the league may be renamed or deleted later.
    username = models.CharField(_("user name"), max_length=150)
    league = models.ForeignKey(League, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    league_name = models.CharField(_("league"), max_length=150, blank=True)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    by_name = models.CharField(_("by"), max_length=150, blank=True)
    at = models.DateTimeField(_("when"), auto_now_add=True)

    class Meta:
        ordering = ["-at", "-pk"]
        verbose_name = _("league right change")
        verbose_name_plural = _("league right changes")

    def __str__(self) -> str:
        return f"{self.username}: {self.action} {self.right} {self.league_name}"


class ReportRemark(models.Model):
    """A captain's remark or protest on the match report (typed by the manager or the
    host's director at the hall), with who typed it and when."""

    class Kind(models.TextChoices):
        REMARK = "remark", _("remark")
        PROTEST = "protest", _("protest")

    match_day = models.ForeignKey(MatchDay, on_delete=models.CASCADE, related_name="report_remarks")
    team = models.ForeignKey(
        LeagueTeam, verbose_name=_("team"), null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    kind = models.CharField(_("kind"), max_length=8, choices=Kind.choices, default=Kind.REMARK)
    text = models.TextField(_("text"), max_length=1000)
    made_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    made_at = models.DateTimeField(_("when"), auto_now_add=True)

    class Meta:
        ordering = ["match_day", "made_at", "pk"]
        verbose_name = _("match report remark")
        verbose_name_plural = _("match report remarks")

    def __str__(self) -> str:
        return f"{self.kind}: {self.text[:40]}"


class ReportSigning(models.Model):
    """Where and when the captains signed the match report; the latest row counts, the
    earlier ones stay as the record of the change."""

    match_day = models.ForeignKey(MatchDay, on_delete=models.CASCADE, related_name="report_signings")
    place = models.CharField(_("place of signing"), max_length=120)
    signed_at = models.DateTimeField(_("time of signing"))
    made_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    made_at = models.DateTimeField(_("recorded"), auto_now_add=True)

    class Meta:
        ordering = ["match_day", "made_at", "pk"]
        verbose_name = _("match report signing")
        verbose_name_plural = _("match report signings")

    def __str__(self) -> str:
        return f"{self.place}, {self.signed_at:%Y-%m-%d %H:%M}"
