"""The hall's side: import a match-day package in one step (:mod:`leagues.packages.schema`).

The hall office gets the server's league (its rules), the groups, the teams with their
rosters and captains, the host and the match days, each match day with the server's key:
the hall's match day *is* the server's, and its publication names it by that key
(``publish_tournament`` needs no ``--matchday``). What exists already is found, not made
twice: the league by name and season, a group and a team by name, a player by membership
number (else the roster's player of his name and club), a match day by its key. Importing
the same package again changes nothing; a changed package (a roster change, a new date)
updates the hall and says what changed. One transaction: a refused package (a rule of the
roster, a match day already drawn here that the package would change, a league the user
does not run) changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db import transaction
from django.utils.translation import gettext as _

from core.jsonfiles import strictly_equal
from leagues import setup
from leagues.forms import refusal
from leagues.lineups import create_match_day
from leagues.models import Group, Host, League, LeagueTeam, MatchDay, RosterEntry
from leagues.publication import new_host
from skat.rules import RuleError
from tournaments.models import Registration, Team

from .schema import MatchDayData, Package, PackageError, TeamData, setzplan


@dataclass
class Imported:
    league: League
    match_days: list[MatchDay] = field(default_factory=list)
    #: What the import changed, one line each; empty: the hall had the package already.
    changes: list[str] = field(default_factory=list)


def import_package(package: Package, user) -> Imported:
    """Make the hall's league, groups, teams, rosters, host and match days the package's."""
    try:
        with transaction.atomic():
            league, note = _league(package, user)
            done = Imported(league, changes=[note] if note else [])
            host = _host(league, package.host, done)
            teams: dict[tuple[str, str], LeagueTeam] = {}
            for index, data in enumerate(package.groups):
                group = _group(league, data.name, done)
                added = []
                for number, team_data in enumerate(data.teams):
                    path = f"groups[{index}].teams[{number}]"
                    team = _team(group, team_data, path, done, added)
                    teams[data.name.casefold(), team_data.name.casefold()] = team
                if added:
                    done.changes.append(
                        _("Teams added to %(group)s: %(teams)s.") % {"group": group.name, "teams": ", ".join(added)}
                    )
            for index, day in enumerate(package.match_days):
                done.match_days.append(_match_day(league, host, day, teams, f"match_days[{index}]", done))
    except RuleError as error:
        raise PackageError(refusal(error)) from None
    return done


def _league(package: Package, user) -> tuple[League, str]:
    """The hall's league of the package (made, or its rules brought to the package's) and
    what changed."""
    league = League.objects.filter(name__iexact=package.league, season=package.season).first()
    fields = {"name": package.league, "season": package.season, **package.rules}
    if league is None:
        if not user.has_perm("leagues.add_league"):
            raise PackageError(
                _("league: %(league)s %(season)s is not on this office, and you may not set up leagues")
                % {"league": package.league, "season": package.season}
            )
        league = setup.create_league(fields, user)
        return league, _("League %(league)s set up.") % {"league": league}
    if not league.is_manager(user):
        raise PackageError(_("league: you do not manage %(league)s on this office") % {"league": league})
    if all(getattr(league, name) == value for name, value in package.rules.items()):
        return league, ""
    league = setup.update_league(league, {**fields, "name": league.name})
    return league, _("League %(league)s: its rules changed.") % {"league": league}


def _host(league: League, name: str, done: Imported) -> Host:
    host = Host.objects.filter(league=league, name__iexact=name).first()
    if host is None:
        # The hall's host publishes nothing to itself: its token is made and forgotten.
        host, _token = new_host(league, name)
        done.changes.append(_("Host added: %(host)s.") % {"host": name})
    return host


def _group(league: League, name: str, done: Imported) -> Group:
    group = Group.objects.filter(league=league, name__iexact=name).first()
    if group is None:
        group = setup.save_group(league, name)
        done.changes.append(_("Group added: %(group)s.") % {"group": name})
    return group


def _lines(team: LeagueTeam) -> list[tuple]:
    return sorted(
        (e.position, e.player.name, e.player.membership_number, e.player.club.name if e.player.club_id else "")
        for e in RosterEntry.objects.filter(team=team).select_related("player__club")
    )


def _team(group: Group, data: TeamData, path: str, done: Imported, added: list[str]) -> LeagueTeam:
    team = LeagueTeam.objects.filter(group=group, name__iexact=data.name).select_related("club").first()
    if team is None:
        team = setup.save_team(group, data.name, data.club)
        added.append(data.name)
    elif (team.club.name if team.club_id else "") != data.club:
        team = setup.save_team(group, team.name, data.club, team)
        done.changes.append(_("Club of %(team)s: %(club)s.") % {"team": team.name, "club": data.club or "-"})
    before = _lines(team)
    wanted = sorted((line.position, line.name, line.membership_number, line.club) for line in data.roster)
    captain = RosterEntry.objects.filter(team=team, player_id=team.captain_id).values_list("position", flat=True)
    if before == wanted and (captain.first() if team.captain_id else None) == data.captain:
        return team
    rows = [setup.RosterRow(line.position, line.name, line.club, line.membership_number) for line in data.roster]
    try:
        setup.save_roster(team, rows, data.captain)
    except RuleError as error:
        raise PackageError(f"{path}.roster, {refusal(error)}") from None
    if before:
        came = sorted({line[1] for line in wanted} - {line[1] for line in before})
        left = sorted({line[1] for line in before} - {line[1] for line in wanted})
        done.changes.append(
            _("Roster of %(team)s changed (in: %(came)s; out: %(left)s).")
            % {"team": team.name, "came": ", ".join(came) or "-", "left": ", ".join(left) or "-"}
        )
    return team


def _match_day(league: League, host: Host, data: MatchDayData, teams: dict, path: str, done: Imported) -> MatchDay:
    expected = setzplan(list(data.teams), league.series_per_matchday)
    # Strictly: ``[["A", true]]`` equals ``[["A", 1]]`` in Python, but it is not the plan.
    if not strictly_equal(data.setzplan, expected):
        raise PackageError(
            _("%(field)s.setzplan: differs from this office's fixed seating plan; update the office") % {"field": path}
        )
    group = Group.objects.get(league=league, name__iexact=data.group)
    playing = [teams[data.group.casefold(), name.casefold()] for name in data.teams]
    day = MatchDay.objects.filter(key=data.key).select_related("group__league", "tournament").first()
    if day is None:
        day = create_match_day(group, number=data.number, date=data.date, teams=playing, host=host)
        MatchDay.objects.filter(pk=day.pk).update(key=data.key)
        day.key = data.key
        done.changes.append(_("%(day)s on %(date)s added.") % {"day": day, "date": data.date.isoformat()})
        return day
    if day.group_id != group.pk:
        raise PackageError(
            _("%(field)s.key: this office has the key for %(day)s of %(league)s")
            % {"field": path, "day": day, "league": day.group.league}
        )
    now = {team.pk for team in day.teams.all()}
    if (day.number, day.date, day.host_id, now) == (data.number, data.date, host.pk, {t.pk for t in playing}):
        return day
    if day.tournament is None or day.tournament.series.exists():
        raise PackageError(
            _("%(field)s: %(day)s is drawn on this office already; the package would change its date, host or teams")
            % {"field": path, "day": day}
        )
    _retime(day, data, host, playing)
    done.changes.append(_("%(day)s changed (date, host or teams).") % {"day": day})
    return day


def _retime(day: MatchDay, data: MatchDayData, host: Host, playing: list[LeagueTeam]) -> None:
    """A match day not drawn yet takes the package's number, date, host and teams."""
    names = {team.name for team in playing}
    tournament = day.tournament
    gone = Team.objects.filter(tournament=tournament).exclude(name__in=names)
    Registration.objects.filter(tournament=tournament, team__in=gone).delete()
    gone.delete()
    have = set(Team.objects.filter(tournament=tournament).values_list("name", flat=True))
    Team.objects.bulk_create([Team(tournament=tournament, name=name) for name in sorted(names - have)])
    type(tournament).objects.filter(pk=tournament.pk).update(date=data.date, venue=host.name)
    MatchDay.objects.filter(pk=day.pk).update(number=data.number, date=data.date, host=host)
    day.teams.set(playing)
    day.refresh_from_db()
