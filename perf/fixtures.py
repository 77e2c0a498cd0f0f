"""The bench's synthetic tournament, and a deal as the table form's POST fields.

:func:`build` registers, draws and enters a whole tournament the way a director and
the scorekeepers would (3,000 players by default in ``manage.py bench``);
:func:`entry_data` is what a phone sends for one deal (the bench's entry figure and the
load test's scorekeepers both send it).
"""

from __future__ import annotations

import datetime
import random
import re
import time

from django.db import connection

from draw.series import draw_series
from rehearsal.deals import entry_data, random_game
from scoring import services
from tournaments.models import Club, Player, Registration, Series, Team, Tournament

from .timing import Log

#: The sheet's version a table link's page or answer shows (its form's hidden field).
SHEET_VERSION = re.compile(rb'name="sheet_version" value="([^"]*)"')


def shown_version(body: bytes) -> dict[str, str]:
    """The form field a phone sends back with its next deal: the sheet's version the page
    it got shows (tablelink.answers answers lean only to it); none where the page has none."""
    found = SHEET_VERSION.search(body)
    return {"sheet_version": found.group(1).decode()} if found else {}


__all__ = ["build", "entry_data"]


def build(players: int, series: int, seed: int = 1, log: Log = print, *, open_last: bool = False) -> Tournament:
    """A finished tournament: ``players`` registered, ``series`` series drawn, every deal entered.

    With ``open_last`` the last series is drawn but not played: it is running, its
    tables empty (the load test's hall enters it).

    Clubs of 15, half the players in club teams of four (team-mates are never drawn
    together), later series seeded by the standings with earlier meetings kept apart,
    just as a director draws them. When every series would seat only tables of four, one
    player withdraws after series 1 so the later series have tables of three too.
    Games are random but valid, each valued by the rules engine, and bulk-inserted.
    """
    rng = random.Random(seed)
    started = time.perf_counter()
    tournament = Tournament.objects.create(
        name=f"Bench {players}", date=datetime.date(2026, 11, 23), series_count=series, lot_seed=seed
    )
    clubs = Club.objects.bulk_create([Club(name=f"Bench club {i:03d}") for i in range(max(1, players // 15))])
    people = Player.objects.bulk_create(
        [Player(name=f"Player {i:04d}", club=clubs[i % len(clubs)]) for i in range(players)], batch_size=1000
    )
    teams = Team.objects.bulk_create(
        [Team(tournament=tournament, name=f"Team {i:03d}") for i in range(players // 8)], batch_size=1000
    )
    # Team i: four players of one club (players i, i + c, i + 2c, i + 3c share club i mod c).
    team_of: dict[int, Team] = {}
    for i, team in enumerate(teams):
        base = (i // len(clubs)) * 4 * len(clubs) + i % len(clubs)
        for k in range(4):
            index = base + k * len(clubs)
            if index < players:
                team_of[index] = team
    withdraw = series > 1 and players % 4 == 0 and players > 8
    Registration.objects.bulk_create(
        [
            Registration(
                tournament=tournament,
                player=p,
                team=team_of.get(i),
                withdrawn_after_series=1 if withdraw and i == players - 1 else None,
            )
            for i, p in enumerate(people)
        ],
        batch_size=1000,
    )
    log(f"  {players} players, {len(clubs)} clubs, {len(teams)} teams: {time.perf_counter() - started:.1f} s")
    for number in range(1, series + 1):
        started = time.perf_counter()
        drawn = draw_series(tournament, Series.Method.SEEDED if number > 1 else Series.Method.RANDOM, provisional=True)
        drew = time.perf_counter() - started
        if open_last and number == series:
            Series.objects.filter(pk=drawn.pk).update(status=Series.Status.RUNNING)
            log(f"  series {number}: {drawn.tables.count()} tables, running, no deal entered (draw {drew:.1f} s)")
            break
        games = []
        for table in drawn.tables.all():
            for deal in range(1, tournament.deals_per_table(table.size) + 1):
                game = random_game(rng, deal, table.size)
                game.table = table
                game.entered_by = "bench"
                games.append(game)
        services.create_deals(games)
        drawn.status = Series.Status.FINISHED
        drawn.save(update_fields=["status"])
        log(
            f"  series {number}: {drawn.tables.count()} tables, {len(games)} games"
            f" (draw {drew:.1f} s, all {time.perf_counter() - started:.1f} s)"
        )
    # Fresh statistics, as a database that has been running a while has them (VACUUM
    # also lets PostgreSQL answer from the covering index alone; not inside a transaction).
    vacuum = connection.vendor == "postgresql" and not connection.in_atomic_block
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE" if vacuum else "ANALYZE")
    return tournament
