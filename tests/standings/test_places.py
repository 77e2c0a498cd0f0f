"""The standings of one tournament from the stored seat totals: ratings and places.

The figures are pinned by hand on a small tournament (a table of three and one of four);
the random tournaments check only that the stored totals reach the engine as the sheets
say (the engine's own tests pin the formula)."""

from __future__ import annotations

import random
from collections import defaultdict

import pytest

from draw.series import draw_series
from office.demo import random_game
from scoring.models import Game
from skat.rating import Rating
from skat.sheet import evaluate_sheet
from standings.places import rated_seats, seat_aggregates, standings, stored_seat_totals
from tests import factories
from tournaments.models import Registration, Seat, Series, Table

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
    """The plumbing at scale: random games, entered fields to stored totals to standings.

    Both sides rate with the engine, so this holds the seat totals, the series and the
    tables to the sheets; the figures themselves are the hand-computed tournament's below.
    """
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


def test_a_seated_player_without_a_registration_still_gets_his_name(django_assert_max_num_queries):
    """The names come from the registrations; a seat made outside the office's views falls back to the seats."""
    from tournaments.models import Registration

    t, _series = factories.drawn(7)
    Registration.objects.filter(tournament=t).first().delete()
    with django_assert_max_num_queries(4):
        rows = standings(t)
    assert len(rows) == 7
    assert all(row.item.name for row in rows)


# --- a small tournament computed by hand --------------------------------------------------

THREE = ["Anna", "Bernd", "Clara"]  # table 1, seats 1-3
FOUR = ["Dora", "Emil", "Fritz", "Gerd"]  # table 2, seats 1-4


def small_tournament():
    """One series: a table of three and a table of four, a few deals each, the table of four signed off.

    Table 1 (all three play every deal):
      1 Anna   clubs with 2, game 3, 80 points: won 12 x 3 = +36
      2 Bernd  spades with 1, game 2, 50 points: lost -2 x 11 x 2 = -44
      3 Clara  null, no trick: won +23
      4 passed out
      5 Anna   grand with 1, game 2, 45 points: lost -2 x 24 x 2 = -96
      6 Bernd  hearts with 2, game 3, 70 points: won 10 x 3 = +30
      7 Clara  diamonds with 1, game 2, 40 points: lost -2 x 9 x 2 = -36
      8 Clara  hearts with 1, game 2, 55 points: lost -2 x 10 x 2 = -40
      9 Bernd  grand with 4, 90 points, voided by a referee: nothing
    Table 2 (seat ((n - 1) mod 4) + 1 deals deal n and sits out):
      1 Emil   clubs with 1, game 2, 50 points: lost -2 x 12 x 2 = -48
      2 Dora   grand with 2, game 3, 75 points: won 24 x 3 = +72
      3 Gerd   null hand, no trick: won +35
      4 Emil   grand with 1, game 2, 40 points: lost -2 x 24 x 2 = -96
      5 Fritz  spades with 3, game 4, 70 points: won 11 x 4 = +44
      6 Gerd   null, one trick: lost -2 x 23 = -46
      7 Dora   diamonds with 1, game 2, 65 points: won 9 x 2 = +18
      8 passed out
    """
    from signoff.models import SignOff

    t = factories.tournament(lot_seed=3)
    series = Series.objects.create(tournament=t, number=1)
    tables = []
    for number, names in enumerate((THREE, FOUR), start=1):
        table = Table.objects.create(series=series, number=number, size=len(names))
        for seat, name in enumerate(names, start=1):
            player = factories.player(name)
            Registration.objects.create(tournament=t, player=player)
            Seat.objects.create(table=table, series=series, number=seat, player=player)
        tables.append(table)
    three, four = tables
    game = factories.game
    game(three, 1, declarer_seat=1, contract="clubs", tops=2, declarer_points=80)
    game(three, 2, declarer_seat=2, contract="spades", tops=1, declarer_points=50)
    game(three, 3, declarer_seat=3, contract="null", declarer_tricks=0)
    game(three, 4, passed_out=True)
    game(three, 5, declarer_seat=1, contract="grand", tops=1, declarer_points=45)
    game(three, 6, declarer_seat=2, contract="hearts", tops=2, declarer_points=70)
    game(three, 7, declarer_seat=3, contract="diamonds", tops=1, declarer_points=40)
    game(three, 8, declarer_seat=3, contract="hearts", tops=1, declarer_points=55)
    game(three, 9, declarer_seat=2, contract="grand", tops=4, declarer_points=90, voided=True)
    game(four, 1, declarer_seat=2, contract="clubs", tops=1, declarer_points=50)
    game(four, 2, declarer_seat=1, contract="grand", tops=2, declarer_points=75)
    game(four, 3, declarer_seat=4, contract="null", hand=True, declarer_tricks=0)
    game(four, 4, declarer_seat=2, contract="grand", tops=1, declarer_points=40)
    game(four, 5, declarer_seat=3, contract="spades", tops=3, declarer_points=70)
    game(four, 6, declarer_seat=4, contract="null", declarer_tricks=1)
    game(four, 7, declarer_seat=1, contract="diamonds", tops=1, declarer_points=65)
    game(four, 8, passed_out=True)
    SignOff.objects.create(table=four, fingerprint="x")
    return t


# Table 1 lost 4 games (Anna 1, Bernd 1, Clara 2): 40 to each of the two others per game.
# Table 2 lost 3 games (Emil 2, Gerd 1): 30 to each of the three others per game.
BY_HAND = {
    # 36 - 96 = -60 points, 1 won, 1 lost; bonus (4 - 1) x 40 = 120: -60 + 50 - 50 + 120 = 60
    "Anna": Rating(points=-60, won=1, lost=1, bonus=120),
    # -44 + 30 = -14 points, 1 won, 1 lost; bonus (4 - 1) x 40 = 120: -14 + 50 - 50 + 120 = 106
    "Bernd": Rating(points=-14, won=1, lost=1, bonus=120),
    # 23 - 36 - 40 = -53 points, 1 won, 2 lost; bonus (4 - 2) x 40 = 80: -53 + 50 - 100 + 80 = -23
    "Clara": Rating(points=-53, won=1, lost=2, bonus=80),
    # 72 + 18 = 90 points, 2 won; bonus 3 x 30 = 90: 90 + 100 + 90 = 280
    "Dora": Rating(points=90, won=2, lost=0, bonus=90),
    # -48 - 96 = -144 points, 2 lost; bonus (3 - 2) x 30 = 30: -144 - 100 + 30 = -214
    "Emil": Rating(points=-144, won=0, lost=2, bonus=30),
    # 44 points, 1 won; bonus 3 x 30 = 90: 44 + 50 + 90 = 184
    "Fritz": Rating(points=44, won=1, lost=0, bonus=90),
    # 35 - 46 = -11 points, 1 won, 1 lost; bonus (3 - 1) x 30 = 60: -11 + 50 - 50 + 60 = 49
    "Gerd": Rating(points=-11, won=1, lost=1, bonus=60),
}


def test_a_small_tournament_computed_by_hand():
    t = small_tournament()
    ranked = standings(t)
    assert [(r.place, r.item.name, r.rating.rating, r.decided_by) for r in ranked] == [
        (1, "Dora", 280, None),
        (2, "Fritz", 184, "rating"),
        (3, "Bernd", 106, "rating"),
        (4, "Anna", 60, "rating"),
        (5, "Gerd", 49, "rating"),
        (6, "Clara", -23, "rating"),
        (7, "Emil", -214, "rating"),
    ]
    assert {r.item.name: r.rating for r in ranked} == BY_HAND
    assert all(r.rating == r.item.rating for r in ranked)
    # One table each; the table of three is not signed off yet: its players' results are provisional.
    assert {r.item.name: (r.item.tables, r.item.unconfirmed) for r in ranked} == {
        name: (1, 1 if name in THREE else 0) for name in THREE + FOUR
    }
    # The tournament has one series: its standings are the overall ones, a second has none.
    assert [(r.item.name, r.rating) for r in standings(t, 1)] == [(r.item.name, r.rating) for r in ranked]
    assert standings(t, 2) == []


def test_each_seat_of_the_small_tournament_rated_by_hand():
    """rated_seats, which the league's results, the individual ranking, the match report and
    the league export read, from the stored totals and from the GROUP BY of the games alike."""
    t = small_tournament()
    seats = list(
        Seat.objects.filter(series__tournament=t)
        .order_by("table__number", "number")
        .values_list("table_id", "number", "player_id", "table__size", "player__name")
    )
    games = Game.objects.filter(table__series__tournament=t)
    tables = Table.objects.filter(series__tournament=t)
    for aggregates in (stored_seat_totals(tables), seat_aggregates(games)):
        rated = [(seat[3], seat[1], seat[4], rating) for seat, rating in rated_seats(seats, aggregates)]
        assert rated == [
            (len(names), n, name, BY_HAND[name]) for names in (THREE, FOUR) for n, name in enumerate(names, 1)
        ]
