"""League arithmetic: league points per series, the match-day and the season table.

The rule (README, "Leagues"; DOMAIN, "Teams and leagues"), every choice a league setting:

- a team's **game points** in a series are the sum of the extended Seeger-Fabian
  ratings of its players who sat at a table in that series;
- in each series every team gets **one league point for each other team of the match
  day that it outscores** on game points; equal game points either share the point
  (``tie="split"``: 1/2 each, the default) or give it to both (``tie="both"``);
- a team that did not turn up (no game points: ``None``) gets no points, and every team
  that played outscores it; two absent teams both lose the pair's point;
- **lost** points are the points of the pairs a team did not win: "8:1" won:lost.
  With ``tie="split"`` and everybody present a series hands out n(n-1)/2 points;
- a **point deduction** (a penalty, with its reason kept by the league) is taken off
  the points won: the table ranks by what is left (:func:`deduct`);
- the tables rank by league points won (less deductions), then game points, then the league's
  tie-break: ``"lot"`` (the default, reproducible like the tournament's lot: a SHA-256
  of the seed and the team) or ``"best_series"`` (the higher best series, then the lot).

Points are :class:`fractions.Fraction` (halves); :func:`as_number` prints 8 or 7.5.
Pure Python: the pages and ``manage.py evaluate --matchday`` use the same functions.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, TypeVar

from .rating import lot
from .sheet import SheetError, evaluate_sheet

K = TypeVar("K", bound=Hashable)

TIES = ("split", "both")
TIE_BREAKS = ("lot", "best_series")
HALF = Fraction(1, 2)


class LeagueError(ValueError):
    """A match day the rule cannot value; the message names the field, series and table."""


def check_tie(tie: object) -> str:
    if tie not in TIES:
        raise LeagueError(f'tie: must be "split" (equal game points share the point) or "both", not {tie!r}')
    return tie  # type: ignore[return-value]


def check_tie_break(tie_break: object) -> str:
    if tie_break not in TIE_BREAKS:
        raise LeagueError(f'tie_break: must be "lot" or "best_series", not {tie_break!r}')
    return tie_break  # type: ignore[return-value]


def series_points(game_points: Mapping[K, int | None], tie: str = "split") -> dict[K, tuple[Fraction, Fraction]]:
    """(won, lost) league points of each team in one series from its game points (None: absent)."""
    check_tie(tie)
    teams = list(game_points)
    result = {team: [Fraction(0), Fraction(0)] for team in teams}
    for i, a in enumerate(teams):
        for b in teams[i + 1 :]:
            pa, pb = game_points[a], game_points[b]
            if pa is None and pb is None:
                result[a][1] += 1
                result[b][1] += 1
            elif pb is None or (pa is not None and pa > pb):
                result[a][0] += 1
                result[b][1] += 1
            elif pa is None or pb > pa:
                result[b][0] += 1
                result[a][1] += 1
            elif tie == "split":
                for team in (a, b):
                    result[team][0] += HALF
                    result[team][1] += HALF
            else:
                result[a][0] += 1
                result[b][0] += 1
    return {team: (won, lost) for team, (won, lost) in result.items()}


@dataclass(slots=True)
class TeamResult:
    """A team's match day (or season): game points per series, league points won and lost."""

    team: Any
    series_points: list[int | None] = field(default_factory=list)
    #: League points won in each series, beside ``series_points``.
    series_won: list[Fraction] = field(default_factory=list)
    won: Fraction = Fraction(0)
    lost: Fraction = Fraction(0)
    matchdays: int = 0
    #: League points taken off as a penalty (the season's deductions).
    deducted: Fraction = Fraction(0)

    @property
    def points(self) -> Fraction:
        """The points the table ranks by: won less deducted."""
        return self.won - self.deducted

    @property
    def game_points(self) -> int:
        return sum(p for p in self.series_points if p is not None)

    @property
    def best_series(self) -> int:
        return max((p for p in self.series_points if p is not None), default=0)

    def __add__(self, other: TeamResult) -> TeamResult:
        """A season: the match days of one team added up."""
        return TeamResult(
            self.team,
            self.series_points + other.series_points,
            self.series_won + other.series_won,
            self.won + other.won,
            self.lost + other.lost,
            self.matchdays + other.matchdays,
            self.deducted + other.deducted,
        )


def match_day(series: Sequence[Mapping[K, int | None]], tie: str = "split") -> dict[K, TeamResult]:
    """Every team's match day from the game points of each series (same teams in each)."""
    check_tie(tie)
    teams: dict[K, TeamResult] = {}
    for number, points in enumerate(series, start=1):
        if teams and set(points) != set(teams):
            raise LeagueError(f"series {number}: must list the same teams as series 1")
        for team in points:
            teams.setdefault(team, TeamResult(team, matchdays=1))
        for team, (won, lost) in series_points(points, tie).items():
            result = teams[team]
            result.series_points.append(points[team])
            result.series_won.append(won)
            result.won += won
            result.lost += lost
    return teams


def season(match_days: Iterable[Mapping[K, TeamResult]], teams: Iterable[K] = ()) -> dict[K, TeamResult]:
    """The season: each team's match days added up (``teams`` that played none get an empty row)."""
    total: dict[K, TeamResult] = {team: TeamResult(team) for team in teams}
    for day in match_days:
        for team, result in day.items():
            total[team] = total[team] + result if team in total else result + TeamResult(team)
    return total


def deduct(total: Mapping[K, TeamResult], deductions: Mapping[K, Fraction]) -> None:
    """Take each team's deducted points off its season (teams not in ``total`` are ignored)."""
    for team, points in deductions.items():
        if points < 0:
            raise LeagueError(f"deduction, {team}: must not be negative, not {points}")
        if team in total:
            total[team].deducted += points


@dataclass(frozen=True, slots=True)
class Place:
    place: int
    result: TeamResult
    #: What put this team below the one above: "points", "game_points", "best_series", "lot".
    decided_by: str | None


def rank_table(
    results: Iterable[TeamResult],
    *,
    tie_break: str = "lot",
    lot_seed: int | str = 0,
    lot_key: Callable[[Any], object] = str,
) -> list[Place]:
    """Rank by league points won less deductions, then game points, then the tie-break (the lot last)."""
    check_tie_break(tie_break)
    criteria = ["points", "game_points"] + (["best_series"] if tie_break == "best_series" else [])

    def key(result: TeamResult) -> tuple:
        counts = [-result.points, -result.game_points]
        if tie_break == "best_series":
            counts.append(-result.best_series)
        return (*counts, lot(lot_seed, lot_key(result.team)))

    ordered = sorted(results, key=key)
    places: list[Place] = []
    for place, result in enumerate(ordered, start=1):
        decided_by = None
        if places:
            above, here = key(places[-1].result), key(result)
            decided_by = next((c for c, x, y in zip(criteria, above, here, strict=False) if x != y), "lot")
        places.append(Place(place, result, decided_by))
    return places


def as_number(points: Fraction) -> int | float:
    """8 or 7.5: a whole number prints whole, a half as a decimal."""
    return int(points) if points.denominator == 1 else float(points)


def points_text(value: Fraction) -> str:
    """'8' or '7½': league points as a table prints them."""
    whole = int(value)
    return f"{whole}½" if value.denominator == 2 else str(whole)


def score_line(won: Fraction, lost: Fraction) -> str:
    """'25:2' or '7½:1½' as a table prints it."""
    return f"{points_text(won)}:{points_text(lost)}"


# The end of a season: promotion and relegation places.

PROMOTION, RELEGATION = "promotion", "relegation"


def check_places(teams: int, promotion: int, relegation: int) -> None:
    """Refuse places the group cannot give: negative, or more than its teams together."""
    for name, value in (("promotion", promotion), ("relegation", relegation)):
        if value < 0:
            raise LeagueError(f"{name}: must be 0 or more, not {value}")
    if promotion + relegation > teams:
        raise LeagueError(
            f"promotion, relegation: {promotion} + {relegation} places are more than the group's {teams} teams"
        )


def zones(table: Sequence[Place], promotion: int, relegation: int) -> dict[int, str]:
    """place -> "promotion" (the first ``promotion`` places) or "relegation" (the last
    ``relegation``); the places between stay. Shared places (before the first match day)
    promote and relegate nobody."""
    check_places(len(table), promotion, relegation)
    if len({p.place for p in table}) < len(table):
        return {}
    count = len(table)
    found = {p.place: PROMOTION for p in table if p.place <= promotion}
    found |= {p.place: RELEGATION for p in table if p.place > count - relegation}
    return found


# The command line's match day (``manage.py evaluate --matchday FILE``).


def evaluate_match_day(data: object) -> dict[str, object]:
    """``{"teams": {name: [players]}, "tie": ..., "series": [[sheet, ...], ...]}`` -> the ranked answer.

    Optional ``"tie_break"`` and ``"lot_seed"`` are the league's settings (default "lot", 0).
    Raises :class:`LeagueError` naming the field, series and table.
    """
    if not isinstance(data, Mapping):
        raise LeagueError('match day: must be a JSON object {"teams": {...}, "series": [...]}')
    unknown = sorted(set(data) - {"teams", "tie", "tie_break", "lot_seed", "series"})
    if unknown:
        raise LeagueError(f"{unknown[0]}: unknown field; a match day has teams, tie, tie_break, lot_seed and series")
    team_of = _teams(data.get("teams"))
    tie = check_tie(data.get("tie", "split"))
    tie_break = check_tie_break(data.get("tie_break", "lot"))
    lot_seed = data.get("lot_seed", 0)
    if not isinstance(lot_seed, int | str) or isinstance(lot_seed, bool):
        raise LeagueError("lot_seed: must be a whole number or a text")
    series = data.get("series")
    if not isinstance(series, list) or not series:
        raise LeagueError("series: must be a list of series, each a list of table sheets")
    names = list(data["teams"])
    points = [_series_game_points(number, tables, team_of, names) for number, tables in enumerate(series, 1)]
    table = rank_table(match_day(points, tie).values(), tie_break=tie_break, lot_seed=lot_seed)
    return {
        "teams": [
            {
                "name": p.result.team,
                "series_points": p.result.series_points,
                "game_points": p.result.game_points,
                "won": as_number(p.result.won),
                "lost": as_number(p.result.lost),
            }
            for p in table
        ]
    }


def _teams(value: object) -> dict[str, str]:
    if not isinstance(value, Mapping) or len(value) < 2:
        raise LeagueError("teams: must be an object of at least two teams, each a list of its players")
    team_of: dict[str, str] = {}
    for team, players in value.items():
        if not isinstance(players, list) or not all(isinstance(p, str) and p.strip() for p in players):
            raise LeagueError(f"teams, {team}: must be a list of player names")
        for name in players:
            other = team_of.setdefault(name.strip(), team)
            if other != team or players.count(name) > 1:
                raise LeagueError(f"teams, {team}: {name.strip()} is listed twice (also in {other})")
    return team_of


def _series_game_points(
    number: int, tables: object, team_of: Mapping[str, str], teams: Sequence[str]
) -> dict[str, int | None]:
    if not isinstance(tables, list) or not tables:
        raise LeagueError(f"series {number}: must be a list of table sheets")
    points: dict[str, int | None] = dict.fromkeys(teams)
    seen: set[str] = set()
    for table, sheet in enumerate(tables, start=1):
        where = f"series {number}, table {table}"
        try:
            result = evaluate_sheet(sheet)
        except SheetError as error:
            raise LeagueError(f"{where}: {error}") from None
        at_table: set[str] = set()
        for name, rating in zip(result.players, result.ratings, strict=True):
            team = team_of.get(name)
            if team is None:
                raise LeagueError(f"{where}: players: {name} is in no team")
            if name in seen:
                raise LeagueError(f"{where}: players: {name} plays twice in this series")
            if team in at_table:
                raise LeagueError(f"{where}: players: team-mates of {team} may not share a table (DOMAIN, teams)")
            seen.add(name)
            at_table.add(team)
            points[team] = (points[team] or 0) + rating.rating
    return points
