"""A demo tournament, built through the same services the pages use.

24 players from six clubs, each club a team of four (fixtures/demo_players.csv), two
series: series 1 drawn at random and fully played, series 2 seeded by the standings and
half played, so every page has something to show.
The games are random but valid: each one is valued by the rules engine.
"""

from __future__ import annotations

import csv
import datetime
import random

from django.db import transaction

from config import datadir
from draw.series import draw_series
from rehearsal.deals import random_game
from scoring import services
from signoff.confirm import mark_on_paper
from tournaments.models import Club, Player, Registration, Series, Team, Tournament
from tournaments.services import DEFAULT_LOST_GAME_FEES, checked_in, give_start_numbers

DEMO_NAME = "Demo Open"
#: The demo's players: name, club, membership number, nationality (also a sample import file).
#: In the project's fixtures/ (a checkout) or the wheel's resources (config.datadir).
PLAYERS_CSV = datadir.resource_dir() / "fixtures" / "demo_players.csv"


def demo_players() -> list[dict[str, str]]:
    with PLAYERS_CSV.open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


@transaction.atomic
def create_demo(director=None, seed: int = 2026) -> Tournament:
    rng = random.Random(seed)
    tournament = Tournament.objects.create(
        name=DEMO_NAME,
        date=datetime.date.today(),
        venue="Altenburg, Skatbrunnen",
        series_count=2,
        entry_fee="15.00",
        list_fee="2.00",
        prize_pool_percent=90,
        lot_seed=seed,
        standings_public=True,
    )
    if director is not None:
        tournament.directors.add(director)
    for start, amount in DEFAULT_LOST_GAME_FEES:  # as a new tournament starts
        tournament.lost_game_fees.create(from_lost_game=start, amount=amount)
    # The DOMAIN's examples of the other money rules, so the settlement sheets show them.
    tournament.passed_out_fees.create(table_size=3, from_passed_out=4, amount="0.50")
    tournament.passed_out_fees.create(table_size=4, from_passed_out=5, amount="0.50")
    for size, amounts in ((4, ("2.00", "1.20", "0.80", "0")), (3, ("2.00", "1.00", "0"))):
        for place, amount in enumerate(amounts, start=1):
            tournament.table_money.create(table_size=size, place=place, amount=amount)
    # The prize pool paid out to the first ten places (shares of the pool, 100 % in all).
    for place, percent in enumerate((25, 18, 14, 11, 9, 7, 6, 5, 3, 2), start=1):
        tournament.prizes.create(place=place, percent=percent)
    rows = list(demo_players())
    # Everybody came and paid the entry fee at the desk; start numbers in the list's order.
    start_numbers = iter(give_start_numbers(tournament, len(rows)))
    registrations = []  # in bulk (the results mark counts a statement once on PostgreSQL)
    for row in rows:
        club = Club.objects.get_or_create(name=row["club"])[0]
        player, _created = Player.objects.get_or_create(
            membership_number=row["membership_number"],
            defaults={"name": row["name"], "club": club, "nationality": row["nationality"]},
        )
        # Each club sends a team of its four (DOMAIN, teams): the draw keeps them apart
        # and the standings rank the teams too.
        team = Team.objects.get_or_create(tournament=tournament, name=row["team"])[0] if row.get("team") else None
        registrations.append(checked_in(tournament, player, next(start_numbers), team))
    Registration.objects.bulk_create(registrations)

    first = draw_series(tournament)
    _play(first, rng, share=1.0)
    first.status = Series.Status.FINISHED
    first.save(update_fields=["status"])
    # Series 1's sheets were signed on paper by their players: final (signoff.confirm, 5.5.3).
    for table in first.tables.all():
        mark_on_paper(table, by="demo")
    second = draw_series(tournament, Series.Method.SEEDED)
    _play(second, rng, share=0.5)
    return tournament


def _play(series: Series, rng: random.Random, share: float) -> None:
    games = []
    for table in series.tables.all():
        deals = int(table.deals * share)
        for number in range(1, deals + 1):
            game = random_game(rng, number, table.size)
            game.table = table
            game.entered_by = "demo"
            games.append(game)
    services.create_deals(games)
    series.status = Series.Status.RUNNING
    series.save(update_fields=["status"])
