"""Match-day results, the season table and a team's season, from the stored games.

A team's game points in a series are the ratings of its players who sat in that series
(:func:`standings.ranking.rated_seats`, the standings' own sum); the league points and
the ranking are :mod:`skat.league`'s. Three queries read every seat of every match
day of a group, whatever the number of match days.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from skat import league as rule
from standings.ranking import rated_seats, stored_seat_totals
from tournaments.models import Registration, Seat, Table

from .models import Group, LeagueTeam, MatchDay

#: (tournament id, series number, team name) -> game points
SeriesPoints = dict[tuple[int, int, str], int]


def series_game_points(tournament_ids: Iterable[int]) -> tuple[SeriesPoints, dict[int, int]]:
    """Each team's game points per series of the tournaments, and how many series each has drawn."""
    ids = list(tournament_ids)
    if not ids:
        return {}, {}
    seats = Seat.objects.filter(series__tournament__in=ids).order_by()
    rows = seats.values_list(
        "table_id", "number", "player_id", "table__size", "series__tournament_id", "series__number"
    )
    tables = Table.objects.filter(series__tournament__in=ids)
    team_of = {
        (tournament, player): name
        for tournament, player, name in Registration.objects.filter(tournament__in=ids, team__isnull=False)
        .order_by()
        .values_list("tournament_id", "player_id", "team__name")
    }
    points: SeriesPoints = defaultdict(int)
    drawn: dict[int, int] = defaultdict(int)
    for seat, rating in rated_seats(list(rows), stored_seat_totals(tables)):
        _table, _number, player, _size, tournament, series = seat
        drawn[tournament] = max(drawn[tournament], series)
        team = team_of.get((tournament, player))
        if team is not None:
            points[tournament, series, team] += rating.rating
    return points, drawn


def _day(match_day: MatchDay, teams: list[LeagueTeam], points: SeriesPoints, drawn: int, tie: str):
    tid = match_day.tournament_id
    series = [{team: points.get((tid, n, team.name)) for team in teams} for n in range(1, drawn + 1)]
    return rule.match_day(series, tie) if series else {}


@dataclass
class MatchDayResult:
    match_day: MatchDay
    #: Series drawn so far (the result covers them).
    series: int
    table: list[rule.Place]


def match_day_result(match_day: MatchDay) -> MatchDayResult:
    """The match day's table: every team's game points per series and its league points."""
    league = match_day.group.league
    teams = list(match_day.teams.all())
    points, drawn = series_game_points([match_day.tournament_id] if match_day.tournament_id else [])
    day = _day(match_day, teams, points, drawn.get(match_day.tournament_id, 0), league.tie)
    table = rule.rank_table(day.values(), tie_break=league.tie_break, lot_seed=league.lot_seed, lot_key=lot_key)
    return MatchDayResult(match_day, drawn.get(match_day.tournament_id, 0), table)


def lot_key(team: LeagueTeam) -> str:
    return f"league-team:{team.pk}"


@dataclass
class SeasonTable:
    group: Group
    table: list[rule.Place]
    #: Match days of the group with results, in order, each with its per-team result.
    days: list[tuple[MatchDay, dict[LeagueTeam, rule.TeamResult]]]

    @property
    def binding(self) -> bool:
        return bool(self.days) and all(day.binding for day, _result in self.days)


def season_tables(groups: Iterable[Group]) -> list[SeasonTable]:
    """Each group's season table: its match days added up, ranked by the league's rule."""
    groups = list(groups)
    days = list(
        MatchDay.objects.filter(group__in=groups, tournament__isnull=False)
        .select_related("group__league")
        .prefetch_related("teams")
        .order_by("number", "date")
    )
    teams_of: dict[int, list[LeagueTeam]] = defaultdict(list)
    for team in LeagueTeam.objects.filter(group__in=groups):
        teams_of[team.group_id].append(team)
    points, drawn = series_game_points(day.tournament_id for day in days)
    tables = []
    for group in groups:
        league = group.league
        mine = [day for day in days if day.group_id == group.pk]
        results = [
            (day, _day(day, list(day.teams.all()), points, drawn.get(day.tournament_id, 0), league.tie))
            for day in mine
        ]
        total = rule.season((result for _day, result in results), teams=teams_of[group.pk])
        if any(result for _day, result in results):
            table = rule.rank_table(
                total.values(), tie_break=league.tie_break, lot_seed=league.lot_seed, lot_key=lot_key
            )
        else:  # before the first match day nothing ranks them, not even the lot: all share place 1
            table = [rule.Place(1, total[team], None) for team in sorted(teams_of[group.pk], key=lambda t: t.name)]
        tables.append(SeasonTable(group, table, [(day, result) for day, result in results if result]))
    return tables


@dataclass
class TeamSeason:
    team: LeagueTeam
    #: (match day, place that day, its result) in order.
    days: list[tuple[MatchDay, int, rule.TeamResult]]
    #: (player name, series played, rating sum, average per series), best average first.
    players: list[tuple[str, int, int, float]]


def team_season(team: LeagueTeam) -> TeamSeason:
    """A team's match days and its players' averages (rating per series played)."""
    group = team.group
    season = season_tables([group])[0]
    days = []
    for day, result in season.days:
        if team in result:
            ranked = rule.rank_table(
                result.values(), tie_break=group.league.tie_break, lot_seed=group.league.lot_seed, lot_key=lot_key
            )
            place = next(p.place for p in ranked if p.result.team == team)
            days.append((day, place, result[team]))
    ids = [day.tournament_id for day, _result in season.days]
    if not ids:
        return TeamSeason(team, days, [])
    members = set(
        Registration.objects.filter(tournament__in=ids, team__name=team.name).values_list("tournament_id", "player_id")
    )
    seats = Seat.objects.filter(series__tournament__in=ids).order_by()
    rows = seats.values_list("table_id", "number", "player_id", "table__size", "series__tournament_id", "player__name")
    per_player: dict[str, list[int]] = defaultdict(list)
    for seat, rating in rated_seats(list(rows), stored_seat_totals(Table.objects.filter(series__tournament__in=ids))):
        if (seat[4], seat[2]) in members:
            per_player[seat[5]].append(rating.rating)
    players = sorted(
        ((name, len(r), sum(r), round(sum(r) / len(r), 1)) for name, r in per_player.items()), key=lambda row: -row[3]
    )
    return TeamSeason(team, days, players)
