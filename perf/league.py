"""A small league season beside the bench tournament, for the league pages' figures.

One group of ``teams`` teams (a roster of six each, positions 1-4 regular), match days
of four teams in turn, each a tournament drawn and played as a league evening is: the
line-ups registered, every series drawn (team-mates kept apart) and every deal entered
with random but valid games, bulk-inserted like :func:`perf.fixtures.build`.
The league is published, so its public pages answer, and ``manager`` manages it.
"""

from __future__ import annotations

import datetime
import random
from dataclasses import dataclass

from draw.series import draw_series
from leagues import lineups
from leagues.models import Group, League, LeagueTeam, MatchDay, RosterEntry
from office.demo import random_game
from scoring import services
from tournaments.models import Club, Player, Series

#: Players on a team's roster: four regulars and two reserves.
ROSTER = 6


@dataclass(frozen=True)
class Season:
    league: League
    group: Group
    teams: list[LeagueTeam]
    match_days: list[MatchDay]


def build_season(manager, *, teams: int = 8, match_days: int = 6, seed: int = 1) -> Season:
    """A published league with ``match_days`` match days played by four of ``teams`` teams each."""
    rng = random.Random(seed)
    league = League.objects.create(name="Bench league", season="2026", lot_seed=seed, published=True)
    league.managers.add(manager)
    group = Group.objects.create(league=league, name="Group 1")
    made = []
    for t in range(teams):
        club = Club.objects.create(name=f"League club {t + 1:02d}")
        team = LeagueTeam.objects.create(group=group, name=f"League team {t + 1:02d}", club=club)
        players = Player.objects.bulk_create(
            [Player(name=f"League {t + 1:02d}-{n}", club=club) for n in range(1, ROSTER + 1)]
        )
        RosterEntry.objects.bulk_create(
            [RosterEntry(team=team, player=p, position=n) for n, p in enumerate(players, start=1)]
        )
        team.captain = players[0]
        team.save(update_fields=["captain"])
        made.append(team)
    days = []
    for number in range(1, match_days + 1):
        playing = [made[(number - 1 + k * 2) % teams] for k in range(4)] if teams > 4 else made[:4]
        day = lineups.create_match_day(
            group, number=number, date=datetime.date(2026, 9, 1) + datetime.timedelta(days=7 * number), teams=playing
        )
        play_match_day(day, playing, rng)
        days.append(day)
    return Season(league, group, made, days)


def play_match_day(day: MatchDay, playing: list[LeagueTeam], rng: random.Random) -> int:
    """Line up each team's regulars, draw every series and enter every deal; answers the deals entered."""
    for team in playing:
        regulars = [e.player for e in team.roster.filter(position__lte=4).select_related("player")]
        lineups.set_line_up(day, team, regulars)
    tournament = day.tournament
    entered = 0
    for _series in range(tournament.series_count):
        series = draw_series(tournament)
        games = []
        for table in series.tables.all():
            for deal in range(1, tournament.deals_per_table(table.size) + 1):
                game = random_game(rng, deal, table.size)
                game.table = table
                game.entered_by = "bench"
                games.append(game)
        services.create_deals(games)
        entered += len(games)
        Series.objects.filter(pk=series.pk).update(status=Series.Status.FINISHED)
    return entered
