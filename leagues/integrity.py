"""What keeps a match day's result the one its rosters and line-ups give: a player plays
only for a team of the match day whose roster holds him, and a binding match day's teams
no longer change (5.5.3). Fills :data:`tournaments.hooks.team_refused` and
:data:`tournaments.hooks.team_changed` for the tournament's Players page.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from .checks import uncheck
from .models import LeagueEvent, MatchDay, RosterEntry


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
