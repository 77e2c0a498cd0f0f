"""Match-day results, the season table and a team's season, from the stored games.

A team's game points in a series are the ratings of its players who sat in that series
(:func:`standings.places.rated_seats`, the standings' own sum); the league points and
the ranking are :mod:`skat.league`'s. Three queries read every seat of every match
day of a group, whatever the number of match days.

The end of a season (forfeits, point deductions, promotion and relegation places) is
kept by an app above (``seasons``), which fills :data:`adjustments`; without it the
tables have none.
"""

from __future__ import annotations

import datetime
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction

from django.utils import timezone

from skat import league as rule
from standings.places import rated_seats, stored_seat_totals
from tournaments.hooks import Hook
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


@dataclass
class Adjustments:
    """What the end of a season adds to the tables of some groups."""

    #: (match day id, team id): the team forfeited: no game points, every other team the points.
    forfeited: set[tuple[int, int]] = field(default_factory=set)
    #: team id -> [(points, reason)]: the point deductions in force.
    deductions: dict[int, list[tuple[Fraction, str]]] = field(default_factory=dict)
    #: group id -> (promotion places, relegation places).
    places: dict[int, tuple[int, int]] = field(default_factory=dict)


#: (group ids, forfeits_only=False) -> :class:`Adjustments`; filled by the seasons app, by
#: default none. A match day's result needs only the forfeits (one query).
adjustments = Hook("leagues.adjustments", lambda group_ids, forfeits_only=False: Adjustments())


def _day(match_day, teams, points: SeriesPoints, drawn: int, tie: str, forfeited=frozenset()):
    """A team that forfeited gets no game points in any series: every team that played outscores it."""
    tid = match_day.tournament_id

    def got(n: int, team: LeagueTeam) -> int | None:
        return None if (match_day.pk, team.pk) in forfeited else points.get((tid, n, team.name))

    series = [{team: got(n, team) for team in teams} for n in range(1, drawn + 1)]
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
    forfeited = adjustments([match_day.group_id], forfeits_only=True).forfeited
    day = _day(match_day, teams, points, drawn.get(match_day.tournament_id, 0), league.tie, forfeited)
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
    #: place -> "promotion" or "relegation" (the league's places for this group).
    zones: dict[int, str] = field(default_factory=dict)
    #: The point deductions in force: (team, points, reason).
    notes: list[tuple[LeagueTeam, Fraction, str]] = field(default_factory=list)

    @property
    def binding(self) -> bool:
        return bool(self.days) and all(day.binding for day, _result in self.days)

    @property
    def numbers(self) -> list[int]:
        """The match-day numbers played (the cross table's columns: the match days of one
        number, at several hosts, are one column)."""
        return sorted({day.number for day, _result in self.days})

    @property
    def rows(self) -> list[dict]:
        """Each place with its zone and its result per match-day number (the cross table's
        row, in :attr:`numbers` order; None: the team did not play that match day)."""
        numbers = self.numbers
        rows = []
        for p in self.table:
            played = {day.number: result[p.result.team] for day, result in self.days if p.result.team in result}
            rows.append({"place": p, "zone": self.zones.get(p.place), "days": [played.get(n) for n in numbers]})
        return rows


def as_of(seasons: Iterable[SeasonTable]) -> datetime.date:
    """The table's "Stand": the date of the latest match day counted, or today before the first."""
    return max((day.date for s in seasons for day, _result in s.days), default=None) or timezone.localdate()


def season_tables(groups: Iterable[Group]) -> list[SeasonTable]:
    """Each group's season table: its match days added up, ranked by the league's rule."""
    groups = list(groups)
    days = list(
        MatchDay.objects.filter(group__in=groups, tournament__isnull=False)
        .select_related("group__league", "host")  # the cross table names each day's host
        .prefetch_related("teams")
        .order_by("number", "date")
    )
    teams_of: dict[int, list[LeagueTeam]] = defaultdict(list)
    for team in LeagueTeam.objects.filter(group__in=groups):
        teams_of[team.group_id].append(team)
    points, drawn = series_game_points(day.tournament_id for day in days)
    found = adjustments([group.pk for group in groups])
    tables = []
    for group in groups:
        league = group.league
        mine = [day for day in days if day.group_id == group.pk]
        results = [
            (
                day,
                _day(day, list(day.teams.all()), points, drawn.get(day.tournament_id, 0), league.tie, found.forfeited),
            )
            for day in mine
        ]
        total = rule.season((result for _day, result in results), teams=teams_of[group.pk])
        notes = [(t, pts, why) for t in teams_of[group.pk] for pts, why in found.deductions.get(t.pk, [])]
        rule.deduct(total, {t: sum((pts for pts, _why in found.deductions.get(t.pk, [])), Fraction(0)) for t in total})
        if any(result for _day, result in results):
            table = rule.rank_table(
                total.values(), tie_break=league.tie_break, lot_seed=league.lot_seed, lot_key=lot_key
            )
        else:  # before the first match day nothing ranks them, not even the lot: all share place 1
            table = [rule.Place(1, total[team], None) for team in sorted(teams_of[group.pk], key=lambda t: t.name)]
        promotion, relegation = found.places.get(group.pk, (0, 0))
        try:
            zones = rule.zones(table, promotion, relegation)
        except rule.LeagueError:  # teams withdrawn since the places were set: nobody moves until they are set again
            zones = {}
        played = [(day, result) for day, result in results if result]
        tables.append(SeasonTable(group, table, played, zones, notes))
    return tables


@dataclass
class TeamSeason:
    team: LeagueTeam
    #: (match day, place that day, its result) in order.
    days: list[tuple[MatchDay, int, rule.TeamResult]]
    #: (player name, series played, rating sum, average per series), best average first.
    players: list[tuple[str, int, int, float]]
    #: The "Stand" of the group's table.
    as_of: datetime.date = field(default_factory=timezone.localdate)


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
    # Its players sat only at its own match days: a quarter of a group of 16's.
    ids = [day.tournament_id for day, _place, _result in days]
    if not ids:
        return TeamSeason(team, days, [], as_of([season]))
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
    return TeamSeason(team, days, players, as_of([season]))
