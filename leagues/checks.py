"""The league manager's check of a match day and its binding (audited, like a referee's work).

The manager reads the match day's sheets and corrects games through the referees'
audited corrections (:mod:`referees.corrections`, before and after kept); he then marks
the match day **checked**. The check stores its time and the deadline the league's
period (``binding_days``) gives then: the match day becomes **binding** when he marks it
so or when that stored deadline has passed, whatever the period is changed to later. A
binding match day's games can no longer be corrected (this module fills
:data:`referees.hooks.correction_refused`); a correction of a checked one withdraws the
check (:func:`uncheck`, audited), so it is checked again before it binds.

A player plays only for a team of the match day whose roster holds him, and a binding
match day's teams no longer change (:func:`team_refused`, :func:`team_changed` fill the
tournament's Players page hooks). The manager may remove a host's publication
(:func:`remove_publication`): its results no longer count, recorded with who, when and
why; the match day gets an empty tournament again, the removed one is archived (off the
front page, kept as evidence) and a resend of the same file is refused naming the removal.
"""

from __future__ import annotations

import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from referees.models import Correction
from skat.rules import RuleError, gettext_noop
from tournaments.models import Registration, Series, Tournament

from .lineups import empty_tournament
from .models import LeagueEvent, MatchDay, Publication, RosterEntry


def check(match_day: MatchDay, *, user, note: str = "") -> MatchDay:
    """Mark the match day checked by the league manager (again after a later correction)."""
    with transaction.atomic():
        match_day = MatchDay.objects.select_for_update().get(pk=match_day.pk)
        if match_day.binding:
            raise RuleError("match_day", gettext_noop("the match day is binding already"), "league")
        if match_day.checked_at is not None:
            # A second press must not restart the period: the deadline stays the first check's.
            raise RuleError(
                "match_day",
                gettext_noop("the match day is checked already ({checked}); it becomes binding on {due}"),
                "league",
                checked=f"{timezone.localtime(match_day.checked_at):%Y-%m-%d %H:%M}",
                due=f"{timezone.localtime(match_day.binding_due):%Y-%m-%d %H:%M}" if match_day.binding_due else "-",
            )
        if match_day.tournament_id is None or not match_day.tournament.series.exists():
            raise RuleError("match_day", gettext_noop("no series of this match day is played yet"), "league")
        _no_open_series(match_day)
        league = match_day.group.league
        match_day.checked_at = timezone.now()
        match_day.binding_due = match_day.checked_at + datetime.timedelta(days=league.binding_days)
        match_day.checked_by = user
        match_day.save(update_fields=["checked_at", "binding_due", "checked_by"])
        LeagueEvent.objects.create(match_day=match_day, kind=LeagueEvent.Kind.CHECKED, user=user, note=note[:500])
    return match_day


def _no_open_series(match_day: MatchDay) -> None:
    """A series still being played has no final result: the check waits until it is finished."""
    open_series = list(
        match_day.tournament.series.exclude(status=Series.Status.FINISHED)
        .order_by("number")
        .values_list("number", flat=True)
    )
    if len(open_series) == 1:
        raise RuleError(
            "match_day",
            gettext_noop("series {series} is still open: finish it before the check"),
            "league",
            series=open_series[0],
        )
    if open_series:
        raise RuleError(
            "match_day",
            gettext_noop("series {series} are still open: finish them before the check"),
            "league",
            series=", ".join(str(n) for n in open_series),
        )


def make_binding(match_day: MatchDay, *, user) -> MatchDay:
    """Mark the checked match day binding now (before its period ends)."""
    with transaction.atomic():
        match_day = MatchDay.objects.select_for_update().get(pk=match_day.pk)
        if match_day.checked_at is None:
            raise RuleError("match_day", gettext_noop("check the match day before it becomes binding"), "league")
        if match_day.binding:
            raise RuleError("match_day", gettext_noop("the match day is binding already"), "league")
        match_day.binding_at = timezone.now()
        match_day.binding_by = user
        match_day.save(update_fields=["binding_at", "binding_by"])
        LeagueEvent.objects.create(match_day=match_day, kind=LeagueEvent.Kind.BINDING, user=user)
    return match_day


def uncheck(match_day_id: int, *, user, note: str) -> bool:
    """A change of a checked (not yet binding) match day's result withdraws the check,
    audited with what changed: the manager checks it again and the period starts anew.
    Answers whether a check was withdrawn. Call it inside the change's transaction."""
    match_day = MatchDay.objects.select_for_update().filter(pk=match_day_id).first()
    # Binding by its deadline too (a change racing the deadline): a bound result keeps its check.
    if match_day is None or match_day.checked_at is None or match_day.binding:
        return False
    MatchDay.objects.filter(pk=match_day.pk).update(checked_at=None, binding_due=None, checked_by=None)
    LeagueEvent.objects.create(match_day=match_day, kind=LeagueEvent.Kind.UNCHECKED, user=user, note=note[:500])
    return True


def game_corrected(tournament_id: int, *, user, note: str) -> None:
    """Fills referees.hooks.game_corrected: a correction of a checked match day withdraws its check."""
    match_day_id = MatchDay.objects.filter(tournament_id=tournament_id).values_list("pk", flat=True).first()
    if match_day_id is not None:
        uncheck(match_day_id, user=user, note=note)


def correction_refused(tournament_id: int) -> tuple[str, dict] | None:
    """Fills referees.hooks.correction_refused: a binding match day's games stay as they are."""
    match_day = MatchDay.objects.filter(tournament_id=tournament_id).select_related("group__league").first()
    if match_day is None or not match_day.binding:
        return None
    return gettext_noop("match day {number} is binding: its results can no longer be corrected"), {
        "number": match_day.number
    }


def corrections(match_day: MatchDay):
    """The referees' and league manager's corrections of the match day's games, oldest first."""
    return (
        Correction.objects.filter(game__table__series__tournament=match_day.tournament_id)
        .select_related("made_by", "game__table__series")
        .order_by("made_at", "pk")
    )


# The tournament's Players page on a match day.


def team_refused(tournament, player, team: str) -> str | None:
    """Why ``player`` (None: not known yet) may not play for ``team`` on this match day, or None."""
    match_day = MatchDay.objects.filter(tournament=tournament).select_related("group__league").first()
    if match_day is None:
        return None
    if match_day.binding:
        return _("Match day %(number)s is binding: its teams and results can no longer change (5.5.3).") % {
            "number": match_day.number
        }
    if not team:
        return _("On a league match day every player plays for a team of his roster.")
    league_team = match_day.teams.filter(name__iexact=team).first()
    if league_team is None:
        return _("%(team)s does not play match day %(number)s.") % {"team": team, "number": match_day.number}
    if player is None or not RosterEntry.objects.filter(team=league_team, player=player).exists():
        name = player.name if player is not None else _("This player")
        return _("%(player)s is not on the roster of %(team)s: a team fields only its own roster's players.") % {
            "player": name,
            "team": league_team.name,
        }
    return None


def team_changed(registration, before: str, after: str, user) -> None:
    """Record the change on the match day and withdraw its check: the result changed."""
    match_day = MatchDay.objects.filter(tournament_id=registration.tournament_id).first()
    if match_day is None:
        return
    note = f"{registration.player.name}: {before or '-'} -> {after or '-'}"
    LeagueEvent.objects.create(match_day=match_day, kind=LeagueEvent.Kind.TEAM_CHANGE, user=user, note=note[:500])
    uncheck(match_day.pk, user=user, note=note)


def remove_publication(publication: Publication, *, user, reason: str) -> Publication:
    """Remove the publication's results from its match day, audited with the reason."""
    reason = " ".join((reason or "").split())
    if not reason:
        raise RuleError("reason", gettext_noop("say why the publication is removed"), "league")
    with transaction.atomic():
        publication = Publication.objects.select_for_update().select_related("host").get(pk=publication.pk)
        if publication.rejected_at is not None:
            raise RuleError("publication", gettext_noop("the publication is removed already"), "league")
        if publication.match_day_id is None:
            raise RuleError("publication", gettext_noop("the publication counts for no match day"), "league")
        match_day = (
            MatchDay.objects.select_for_update(of=("self",))
            .select_related("group__league", "host")
            .get(pk=publication.match_day_id)
        )
        if match_day.binding:
            raise RuleError(
                "publication",
                gettext_noop("match day {number} is binding: its results can no longer be removed"),
                "league",
                number=match_day.number,
            )
        old = match_day.tournament
        if old is not None and old.pk == publication.tournament_id:
            match_day.tournament = empty_tournament(
                match_day.group,
                number=match_day.number,
                date=match_day.date,
                host=match_day.host,
                teams=list(match_day.teams.all()),
            )
            match_day.checked_at = match_day.binding_due = match_day.checked_by = None
            match_day.save(update_fields=["tournament", "checked_at", "binding_due", "checked_by"])
            match_day.substitutions.all().delete()
            # Kept as the evidence of what was removed, off the front page (its corrections stay).
            Tournament.objects.filter(pk=old.pk).update(archived=True)
        publication.rejected_at = timezone.now()
        publication.rejected_by = user
        publication.rejection = reason[:500]
        publication.save(update_fields=["rejected_at", "rejected_by", "rejection"])
        # The hall's first file and its re-published corrections count through one
        # tournament: removing one removes what they all count, so none of them stays
        # listed as counting, and a resend of any is refused naming the removal (not
        # answered "already stored" while the match day shows nothing).
        Publication.objects.filter(
            match_day_id=match_day.pk, tournament_id=publication.tournament_id, rejected_at__isnull=True
        ).update(rejected_at=publication.rejected_at, rejected_by=user, rejection=reason[:500])
        note = f"{publication.host.name}, {publication.received_at:%Y-%m-%d %H:%M}: {reason}"
        LeagueEvent.objects.create(match_day=match_day, kind=LeagueEvent.Kind.REJECTED, user=user, note=note[:500])
    return publication


def roster_warnings(match_day: MatchDay) -> list[str]:
    """Who plays (or is lined up) on this match day for no team of it, or without being on
    his team's roster: each named with the rule, for the manager to correct before the
    check (three queries). A team fields only its own roster's players (positions 1-8;
    DOMAIN, "Teams and leagues")."""
    if match_day.tournament_id is None:
        return []
    teams = {team.name.casefold(): team for team in match_day.teams.all()}
    rostered = set(RosterEntry.objects.filter(team__in=teams.values()).values_list("team_id", "player_id"))
    warnings = []
    for player_id, name, team in (
        Registration.objects.filter(tournament_id=match_day.tournament_id)
        .order_by("player__name", "pk")
        .values_list("player_id", "player__name", "team__name")
    ):
        league_team = teams.get((team or "").casefold())
        if league_team is None:
            text = _("%(player)s plays for no team of this match day: every player plays for a team of his roster.")
            warnings.append(text % {"player": name})
        elif (league_team.pk, player_id) not in rostered:
            text = _(
                "%(player)s plays for %(team)s but is not on its roster: a team fields only its own roster's players."
            )
            warnings.append(text % {"player": name, "team": league_team.name})
    return warnings
