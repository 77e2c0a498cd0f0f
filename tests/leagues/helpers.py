"""A season as the league tests need it: match days set up, lined up, drawn and played."""

from __future__ import annotations

import datetime

from draw.series import draw_series
from leagues import lineups
from tests import factories


def roster(team, *positions):
    return [e.player for e in team.roster.filter(position__in=positions).select_related("player")]


def played_day(group, teams, number: int, winners: list[str | None], *, substitute: bool = False):
    """Match day ``number``: every team its positions 1-4, series won by ``winners`` in turn
    (a team name, or None: all passed out); with ``substitute`` A5 comes in for A1 before series 2."""
    day = lineups.create_match_day(group, number=number, date=datetime.date(2026, 9, number), teams=teams)
    for team in teams:
        lineups.set_line_up(day, team, roster(team, 1, 2, 3, 4))
    for index, winner in enumerate(winners):
        if index == 1 and substitute:
            lineups.substitute(day, teams[0], roster(teams[0], 1)[0], roster(teams[0], 5)[0])
        factories.play_series(draw_series(day.tournament), winner)
    return day
