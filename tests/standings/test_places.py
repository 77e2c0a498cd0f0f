"""Standings from the database equal the pure evaluation of every table's sheet."""

from __future__ import annotations

import random
from collections import defaultdict

import pytest

from draw.series import draw_series
from office.demo import random_game
from perf import oracle
from scoring.models import Game
from skat.rating import Rating, rate_table
from skat.sheet import evaluate_sheet
from standings.places import standings
from tests import factories
from tournaments.models import Series

pytestmark = pytest.mark.django_db


def play(series: Series, rng: random.Random, share: float = 1.0) -> None:
    for table in series.tables.all():
        for number in range(1, int(table.deals * share) + 1):
            game = random_game(rng, number, table.size)
            game.table = table
            game.save()


def engine_ratings(tournament, series_number=None) -> dict[int, Rating]:
    """The oracle: each table's games as a JSON sheet through skat.sheet."""
    totals: dict[int, Rating] = defaultdict(Rating)
    series = tournament.series.all() if series_number is None else tournament.series.filter(number=series_number)
    for s in series:
        for table in s.tables.all():
            seats = list(table.seats.order_by("number"))
            names = [str(seat.player_id) for seat in seats]
            games = []
            for g in table.games.order_by("number"):
                if g.passed_out:
                    games.append({"passed": True})
                    continue
                entry = {
                    "declarer": names[g.declarer_seat - 1],
                    "contract": g.contract,
                    "hand": g.hand,
                    "schneider_announced": g.schneider_announced,
                    "schwarz_announced": g.schwarz_announced,
                    "ouvert": g.ouvert,
                }
                for key in ("tops", "declarer_points", "declarer_tricks", "bid"):
                    if getattr(g, key) is not None:
                        entry[key] = getattr(g, key)
                games.append(entry)
            result = evaluate_sheet({"players": names, "games": games})
            for seat, rating in zip(seats, result.ratings, strict=True):
                totals[seat.player_id] = totals[seat.player_id] + rating
    return dict(totals)


def test_overall_and_series_standings_equal_the_engine():
    t = factories.tournament(series_count=2, rounds_per_series=4)
    factories.registered(t, 19, clubs=4)  # 4 tables of four and 1 of three
    rng = random.Random(3)
    first = draw_series(t)
    play(first, rng)
    first.status = Series.Status.FINISHED
    first.save()
    second = draw_series(t, Series.Method.SEEDED, provisional=True)
    play(second, rng, share=0.5)

    overall = {row.item.player_id: row.rating for row in standings(t)}
    assert overall == engine_ratings(t)
    for number in (1, 2):
        per_series = {row.item.player_id: row.rating for row in standings(t, number)}
        assert per_series == engine_ratings(t, number)
    assert all(row.item.tables == 2 for row in standings(t))


def test_the_ranking_follows_the_documented_tie_break():
    t = factories.tournament(lot_seed=99)
    table = factories.table_of(3)
    table.series.tournament = t
    table.series.save()
    # Seat 1 wins a grand (+48+50); seats 2 and 3 play nothing: equal ratings, decided by lot.
    factories.game(table, 1, declarer_seat=1, contract="grand", tops=1, declarer_points=61)
    ranked = standings(t)
    assert [r.place for r in ranked] == [1, 2, 3]
    assert ranked[0].item.name == "Seat1" and ranked[0].rating.rating == 98
    assert ranked[2].decided_by == "lot"
    assert [r.item.name for r in standings(t)] == [r.item.name for r in ranked], "the lot is reproducible"


def test_players_without_games_stand_at_zero():
    t, _series = factories.drawn(7)
    rows = standings(t)
    assert len(rows) == 7
    assert {row.rating for row in rows} == {Rating()}


def test_standings_are_a_fixed_number_of_queries(django_assert_max_num_queries):
    t = factories.tournament(rounds_per_series=2)
    factories.registered(t, 40)
    series = draw_series(t)
    play(series, random.Random(1))
    with django_assert_max_num_queries(3):
        rows = standings(t)
    assert len(rows) == 40


def test_each_seat_is_rated_as_the_engine_rates_its_table():
    """rated_seats (the league export's Results rows) gives each seat the engine's rating of its sheet."""
    from standings.places import rated_seats, seat_aggregates
    from tournaments.models import Seat

    t = factories.tournament(series_count=2, rounds_per_series=2)
    factories.registered(t, 7)  # a table of four and one of three
    rng = random.Random(5)
    first = draw_series(t)
    play(first, rng)
    first.status = Series.Status.FINISHED
    first.save()
    play(draw_series(t), rng, share=0.5)
    seats = Seat.objects.filter(series__tournament=t).values_list(
        "table_id", "number", "player_id", "table__size", "pk"
    )
    rated = list(rated_seats(seats, seat_aggregates(Game.objects.filter(table__series__tournament=t))))
    assert len(rated) == 2 * 7
    totals: dict[int, Rating] = defaultdict(Rating)
    for (_table, number, player_id, _size, pk), rating in rated:
        table = Seat.objects.get(pk=pk).table
        sheet = oracle.sheet_of(table, table.games.order_by("number"))
        assert rating == evaluate_sheet(sheet).ratings[number - 1]
        totals[player_id] = totals[player_id] + rating
    assert {row.item.player_id: row.rating for row in standings(t)} == totals


def test_a_seated_player_without_a_registration_still_gets_his_name(django_assert_max_num_queries):
    """The names come from the registrations; a seat made outside the office's views falls back to the seats."""
    from tournaments.models import Registration

    t, _series = factories.drawn(7)
    Registration.objects.filter(tournament=t).first().delete()
    with django_assert_max_num_queries(4):
        rows = standings(t)
    assert len(rows) == 7
    assert all(row.item.name for row in rows)


def reference_standings(tournament, series_number=None) -> dict[int, tuple]:
    """The straightforward computation: every table rated by rate_table, summed per player.

    Voided games are kept out like passed-out deals (they score nothing); a table counts as
    provisional for each of its players until its sheet is signed off.
    """
    from scoring.models import SignOff

    totals: dict[int, list] = {}
    tables = [table for s in tournament.series.all() for table in s.tables.all()]
    if series_number is not None:
        tables = [table for table in tables if table.series.number == series_number]
    signed = set(SignOff.objects.values_list("table_id", flat=True))
    for table in tables:
        games = [
            (g.declarer_seat - 1, g.won, g.score)
            for g in table.games.all()
            if not g.passed_out and not g.voided and g.declarer_seat is not None
        ]
        for seat, rating in zip(table.seats.order_by("number"), rate_table(table.size, games), strict=True):
            entry = totals.setdefault(seat.player_id, [Rating(), 0, 0, seat.player.name])
            entry[0] = entry[0] + rating
            entry[1] += 1
            entry[2] += table.pk not in signed
    return {pk: tuple(entry) for pk, entry in totals.items()}


@pytest.mark.parametrize("seed", range(4))
def test_standings_equal_rate_table_per_table_on_random_tournaments(seed):
    """Equivalence: the fast per-player sums against the reference, with voided games and sign-offs."""
    from scoring.models import SignOff

    rng = random.Random(seed)
    t = factories.tournament(series_count=2, rounds_per_series=rng.randint(1, 3))
    factories.registered(t, rng.randint(6, 14), clubs=rng.randint(0, 3))
    first = draw_series(t)
    play(first, rng, share=rng.choice([0.0, 0.5, 1.0]))
    first.status = Series.Status.FINISHED
    first.save()
    play(draw_series(t), rng, share=rng.random())
    games = list(Game.objects.filter(table__series__tournament=t, passed_out=False))
    for game in rng.sample(games, len(games) // 5):
        game.voided = True
        game.apply_rules(game.table.size)
        game.save()
    for table in rng.sample(list(first.tables.all()), rng.randint(0, first.tables.count())):
        SignOff.objects.create(table=table, fingerprint="x")

    for series_number in (None, 1, 2):
        expected = reference_standings(t, series_number)
        ranked = standings(t, series_number)
        got = {
            row.item.player_id: (row.item.rating, row.item.tables, row.item.unconfirmed, row.item.name)
            for row in ranked
        }
        assert got == expected
        assert all(row.rating == row.item.rating for row in ranked)
        keys = [(-row.rating.rating, -row.rating.won, row.rating.lost) for row in ranked]
        assert keys == sorted(keys)
        assert [row.place for row in ranked] == list(range(1, len(ranked) + 1))
