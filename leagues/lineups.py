"""Match days as tournaments: creating one, the teams' line-ups and substitutions.

A match day is a tournament of the match day's teams (one :class:`tournaments.models.Team`
per league team, of the same name) at a host, drawn as any tournament: team-mates never
share a table, so four teams of four sit at four tables of four, one of each team at
each. The line-up for series 1 registers the players; a substitution between series
withdraws the player who leaves after the last drawn series and registers the reserve
from the next one, so every later draw seats the new line-up.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.db import transaction
from django.utils.translation import gettext as _

from skat.rules import RuleError, gettext_noop
from skat.setzplan import seating_plan
from tournaments.models import Player, Registration, Team, Tournament

from .models import REGULARS, League, LeagueEvent, LeagueTeam, MatchDay, RosterEntry, Substitution


def create_match_day(group, *, number: int, date, teams: Sequence[LeagueTeam], host=None) -> MatchDay:
    """The match day and its tournament (the league's series and rounds; its managers direct it)."""
    league = group.league
    teams = list(teams)
    if len(teams) < 2:
        raise RuleError("teams", gettext_noop("a match day needs at least two teams of the group"), "league")
    if any(team.group_id != group.pk for team in teams):
        raise RuleError("teams", gettext_noop("every team of a match day must belong to its group"), "league")
    with transaction.atomic():
        # The league's row: its managers, read below, do not change until this match day
        # has them as its directors (leagues.setup.add_manager / remove_manager lock it too).
        League.objects.select_for_update().values_list("pk", flat=True).get(pk=league.pk)
        tournament = empty_tournament(group, number=number, date=date, host=host, teams=teams)
        match_day = MatchDay.objects.create(group=group, number=number, date=date, host=host, tournament=tournament)
        match_day.teams.add(*teams)
    return match_day


def empty_tournament(group, *, number: int, date, host, teams: Sequence[LeagueTeam]) -> Tournament:
    """A match day's tournament before play: the league's series and rounds, its teams,
    directed by the league's managers."""
    league = group.league
    # League (120 + season 20) and group (80) may be longer than a tournament's name (160).
    suffix = f" · {number}"
    limit = Tournament._meta.get_field("name").max_length - len(suffix)
    tournament = Tournament.objects.create(
        name=f"{league} · {group.name}"[:limit].rstrip() + suffix,
        date=date,
        venue=host.name if host else "",
        series_count=league.series_per_matchday,
        rounds_per_series=league.rounds_per_series,
    )
    tournament.directors.add(*league.managers.all())
    Team.objects.bulk_create([Team(tournament=tournament, name=team.name) for team in teams])
    return tournament


def _team_of(match_day: MatchDay, team: LeagueTeam) -> Team:
    if not match_day.teams.filter(pk=team.pk).exists():
        raise RuleError("team", gettext_noop("{team} does not play this match day"), "league", team=team.name)
    return Team.objects.get(tournament=match_day.tournament, name=team.name)


def _rostered(team: LeagueTeam, players: Sequence[Player], field: str = "players") -> None:
    on_roster = set(RosterEntry.objects.filter(team=team).values_list("player_id", flat=True))
    for player in players:
        if player.pk not in on_roster:
            raise RuleError(
                field,
                gettext_noop("{player} is not on the roster of {team}"),
                "league",
                player=player.name,
                team=team.name,
            )


def saved_line_up(match_day: MatchDay, team: LeagueTeam) -> list[Player]:
    """The team's saved line-up for series 1 (its players registered from series 1), in roster order."""
    if match_day.tournament_id is None:
        return []
    players = Player.objects.filter(
        registrations__tournament=match_day.tournament_id,
        registrations__team__name=team.name,
        registrations__first_series=1,
    )
    position = dict(RosterEntry.objects.filter(team=team).values_list("player_id", "position"))
    return sorted(players, key=lambda p: (position.get(p.pk, 99), p.pk))


def set_line_up(
    match_day: MatchDay,
    team: LeagueTeam,
    players: Sequence[Player],
    *,
    user=None,
    expected: Sequence[int] | None = None,
) -> bool:
    """The team's players for series 1 (up to four of its roster), before the first draw.

    ``expected``: the player ids of the saved line-up the form showed; when another one was
    saved meanwhile, nothing is overwritten (the manager sees it and saves again). A change
    of a saved line-up is recorded with before and after. Answers whether anything changed.
    """
    players = list(players)
    if not 1 <= len(players) <= REGULARS:
        raise RuleError(
            "players",
            gettext_noop("a line-up has 1 to {most} players, not {count}"),
            "league",
            most=REGULARS,
            count=len(players),
        )
    tournament = match_day.tournament
    with transaction.atomic():
        if tournament.series.exists():
            raise RuleError("players", gettext_noop("series 1 is drawn: change the team by a substitution"), "league")
        Tournament.objects.select_for_update().filter(pk=tournament.pk).exists()  # one line-up writer at a time
        tournament_team = _team_of(match_day, team)
        _rostered(team, players)
        taken = Registration.objects.filter(tournament=tournament, player__in=players).exclude(team=tournament_team)
        if taken.exists():
            raise RuleError(
                "players", gettext_noop("{player} plays for another team"), "league", player=taken[0].player.name
            )
        saved = saved_line_up(match_day, team)
        if expected is not None and sorted(expected) != sorted(p.pk for p in saved):
            raise RuleError(
                "players",
                gettext_noop("the line-up of {team} was saved meanwhile as {saved}; check it and save again"),
                "league",
                team=team.name,
                saved=", ".join(p.name for p in saved) or "-",
            )
        if {p.pk for p in saved} == {p.pk for p in players}:
            return False
        Registration.objects.filter(tournament=tournament, team=tournament_team).delete()
        Registration.objects.bulk_create(
            [Registration(tournament=tournament, player=p, team=tournament_team) for p in players]
        )
        names = ", ".join(p.name for p in players)
        note = f"{team.name}: {names}"
        if saved:
            note = f"{team.name}: {', '.join(p.name for p in saved)} -> {names}"
        LeagueEvent.objects.create(match_day=match_day, kind=LeagueEvent.Kind.LINE_UP, user=user, note=note[:500])
    return True


def substitute(match_day: MatchDay, team: LeagueTeam, player_out: Player, player_in: Player, *, user=None):
    """The reserve ``player_in`` replaces ``player_out`` from the next series on (between series)."""
    tournament = match_day.tournament
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        drawn = tournament.series.count()
        before = drawn + 1
        if drawn == 0:
            raise RuleError("player_out", gettext_noop("before series 1 change the line-up instead"), "league")
        if before > tournament.series_count:
            raise RuleError("player_out", gettext_noop("every series is drawn: no substitution is left"), "league")
        tournament_team = _team_of(match_day, team)
        out = (
            Registration.objects.filter(tournament=tournament, team=tournament_team, player=player_out)
            .playing_in(before)
            .first()
        )
        if out is None:
            raise RuleError(
                "player_out",
                gettext_noop("{player} does not play for {team} now"),
                "league",
                player=player_out.name,
                team=team.name,
            )
        _rostered(team, [player_in], "player_in")
        if Registration.objects.filter(tournament=tournament, player=player_in).exists():
            raise RuleError(
                "player_in",
                gettext_noop("{player} has played this match day already and does not return"),
                "league",
                player=player_in.name,
            )
        Registration.objects.filter(pk=out.pk).update(withdrawn_after_series=drawn)
        Registration.objects.create(tournament=tournament, player=player_in, team=tournament_team, first_series=before)
        substitution = Substitution.objects.create(
            match_day=match_day,
            team=team,
            before_series=before,
            player_out=player_out,
            player_in=player_in,
            made_by=user,
        )
        note = _("%(team)s, series %(series)s: %(in)s for %(out)s") % {
            "team": team.name,
            "series": before,
            "in": player_in.name,
            "out": player_out.name,
        }
        LeagueEvent.objects.create(match_day=match_day, kind=LeagueEvent.Kind.SUBSTITUTION, user=user, note=note)
    return substitution


def line_ups(match_day: MatchDay) -> list[dict[str, list[str]]]:
    """Per series (1..n), each team's players who play it, in roster order (two queries)."""
    tournament = match_day.tournament
    if tournament is None:
        return []
    registrations = list(
        Registration.objects.filter(tournament=tournament, team__isnull=False).values_list(
            "team__name", "player_id", "player__name", "first_series", "withdrawn_after_series"
        )
    )
    position = dict(
        RosterEntry.objects.filter(team__match_days=match_day).values_list("player_id", "position").order_by()
    )
    series = []
    for number in range(1, tournament.series_count + 1):
        teams: dict[str, list[tuple[int, str]]] = {}
        for team, player_id, name, first, withdrawn in registrations:
            if first <= number and (withdrawn is None or withdrawn >= number):
                teams.setdefault(team, []).append((position.get(player_id, 99), name))
        series.append({team: [name for _p, name in sorted(players)] for team, players in teams.items()})
    return series


def _slots(match_day: MatchDay, tournament) -> tuple[list[str], dict[int, tuple[int, int]], list[int]]:
    """The plan's view of the match day: its teams in name order, each player's (team,
    number) by his series-1 line-up in roster order (a reserve takes the number of the
    player he came in for), and each team's line-up size (0: it did not turn up)."""
    teams = sorted(team.name for team in match_day.teams.all())
    position = dict(
        RosterEntry.objects.filter(team__match_days=match_day).values_list("player_id", "position").order_by()
    )
    starters: dict[str, list[int]] = {name: [] for name in teams}
    for player, team in (
        Registration.objects.filter(tournament=tournament, team__isnull=False, first_series=1)
        .order_by()
        .values_list("player_id", "team__name")
    ):
        starters[team].append(player)
    slot: dict[int, tuple[int, int]] = {}
    for index, name in enumerate(teams):
        for number, player in enumerate(sorted(starters[name], key=lambda p: (position.get(p, 99), p))):
            slot[player] = (index, number)
    for out, came_in in match_day.substitutions.order_by("before_series", "pk").values_list(
        "player_out_id", "player_in_id"
    ):
        if out in slot:
            slot[came_in] = slot[out]
    return teams, slot, [len(starters[name]) for name in teams]


def planned_seating(tournament, number: int, players: Sequence[int]) -> list[list[int]] | None:
    """Fills tournaments.hooks.seating_plan: series ``number`` of a match day of up to four
    teams seated by its Setzplan (skat.setzplan), or None when there is none (more teams,
    a line-up the plan cannot seat, a player who is no line-up's): then the draw seats it."""
    match_day = MatchDay.objects.filter(tournament=tournament).first()
    if match_day is None:
        return None
    teams, slot, sizes = _slots(match_day, tournament)
    if not 1 <= len(teams) <= 4 or any(p not in slot for p in players):
        return None
    plan = seating_plan(sizes, tournament.series_count)
    if plan is None:
        return None
    seated = {slot[p]: p for p in players}
    tables = plan[number - 1]
    if len(seated) != len(players) or sorted(seated) != sorted(seat for table in tables for seat in table):
        return None  # someone left without a reserve: the plan's seats and the players differ
    return [[seated[seat] for seat in table] for table in tables]


def seating_of(match_day: MatchDay) -> list[list[list[str]]] | None:
    """The match day's Setzplan by names, per series and table (the match report prints it)."""
    if match_day.tournament_id is None:
        return None
    teams, slot, sizes = _slots(match_day, match_day.tournament)
    if not 1 <= len(teams) <= 4:
        return None
    plan = seating_plan(sizes, match_day.tournament.series_count)
    if plan is None:
        return None
    names = dict(Player.objects.filter(pk__in=list(slot)).values_list("pk", "name"))
    # Who holds each seat of the plan from which series on: the starter, then each reserve.
    holders: dict[tuple[int, int], list[tuple[int, str]]] = {}
    for player, seat in slot.items():
        holders.setdefault(seat, []).append((1, names[player]))
    for before, came_in in match_day.substitutions.order_by("before_series", "pk").values_list(
        "before_series", "player_in_id"
    ):
        if came_in in slot:
            holders[slot[came_in]] = [h for h in holders[slot[came_in]] if h[1] != names[came_in]]
            holders[slot[came_in]].append((before, names[came_in]))

    def holder(seat: tuple[int, int], series: int) -> str:
        return [name for since, name in holders[seat] if since <= series][-1]

    return [
        [[f"{teams[team]}: {holder((team, n), number)}" for team, n in table] for table in tables]
        for number, tables in enumerate(plan, start=1)
    ]
