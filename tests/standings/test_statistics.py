"""Statistics against a small tournament computed by hand, and their query counts."""

from __future__ import annotations

import pytest
from django.utils import translation

from standings.charts import nice_step, running_score_svg
from standings.statistics import player_statistics, running_scores, tournament_statistics
from tests import factories
from tests.transfer.test_exports import finished_tournament
from tournaments.models import Seat, Series, Table

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english():
    """Messages in English whatever language an earlier test left active."""
    with translation.override("en"):
        yield


@pytest.fixture
def small():
    """Two series of one table of three: Anna, Bernd, Clara (series 2 seats Clara, Anna, Bernd)."""
    t = factories.tournament(rounds_per_series=1, series_count=2)
    anna, bernd, clara = (factories.player(n, club="SC") for n in ("Anna", "Bernd", "Clara"))
    tables = []
    for number, order in ((1, (anna, bernd, clara)), (2, (clara, anna, bernd))):
        series = Series.objects.create(tournament=t, number=number, status=Series.Status.FINISHED)
        table = Table.objects.create(series=series, number=1, size=3)
        for seat, player in enumerate(order, start=1):
            Seat.objects.create(table=table, series=series, number=seat, player=player)
        tables.append(table)
    one, two = tables
    factories.game(one, 1, declarer_seat=1, contract="clubs", tops=1, declarer_points=70)  # Anna +24
    factories.game(one, 2, declarer_seat=2, contract="grand", tops=1, hand=True, declarer_points=60)  # Bernd -144
    factories.game(one, 3, declarer_seat=1, contract="null", declarer_tricks=0)  # Anna +23
    factories.game(two, 1, passed_out=True)
    factories.game(two, 2, declarer_seat=2, contract="hearts", tops=2, hand=True, declarer_points=95)  # Anna +50
    factories.game(two, 3, declarer_seat=1, contract="diamonds", tops=1, declarer_points=40)  # Clara -36
    return t, anna, bernd, clara


def test_player_statistics_by_hand(small):
    t, anna, bernd, clara = small
    stats = player_statistics(t)
    a, b, c = stats[anna.pk], stats[bernd.pk], stats[clara.pk]
    assert (a.games, a.won, a.lost, a.suit, a.grand, a.null, a.hand, a.value_sum) == (3, 3, 0, 2, 0, 1, 1, 97)
    assert a.average_value == pytest.approx(97 / 3)
    assert (b.games, b.won, b.lost, b.grand, b.hand, b.average_value) == (1, 0, 1, 1, 1, 72)
    assert (c.games, c.lost, c.suit, c.average_value) == (1, 1, 1, 18)
    assert (a.name, a.club) == ("Anna", "SC")
    assert set(player_statistics(t, [bernd.pk])) == {bernd.pk}


def test_tournament_statistics_by_hand(small):
    t, *_ = small
    s = tournament_statistics(t)
    assert (s.deals, s.passed_out, s.games, s.won, s.lost) == (6, 1, 5, 3, 2)
    assert (s.suit, s.grand, s.null, s.hand, s.overbid, s.schneider, s.schwarz) == (3, 1, 1, 2, 0, 1, 0)
    assert s.average_value == pytest.approx(187 / 5)
    assert s.highest_value == 72


def test_running_scores_by_hand(small):
    t, anna, bernd, clara = small
    scores = running_scores(t)
    assert scores[anna.pk] == [(1, 1, 24), (1, 2, 24), (1, 3, 47), (2, 1, 47), (2, 2, 97), (2, 3, 97)]
    assert scores[bernd.pk] == [(1, 1, 0), (1, 2, -144), (1, 3, -144), (2, 1, -144), (2, 2, -144), (2, 3, -144)]
    assert scores[clara.pk] == [(1, 1, 0), (1, 2, 0), (1, 3, 0), (2, 1, 0), (2, 2, 0), (2, 3, -36)]
    assert running_scores(t, [clara.pk]) == {clara.pk: scores[clara.pk]}


def test_a_tournament_without_games():
    t = factories.tournament()
    s = tournament_statistics(t)
    assert (s.deals, s.games, s.average_value, s.highest_value) == (0, 0, None, None)
    assert player_statistics(t) == {} and running_scores(t) == {}


def test_the_running_totals_end_at_each_players_game_points():
    t = finished_tournament(players=10, series=2)
    from standings.places import standings

    scores = running_scores(t)
    for entry in standings(t):
        assert scores[entry.item.player_id][-1][2] == entry.rating.points


def test_a_fixed_number_of_queries(django_assert_max_num_queries):
    for size in (7, 14):
        t = finished_tournament(players=size, series=2)
        with django_assert_max_num_queries(2):
            player_statistics(t)
        with django_assert_max_num_queries(1):
            tournament_statistics(t)
        with django_assert_max_num_queries(2):
            running_scores(t)
        someone = t.registrations.first().player_id
        with django_assert_max_num_queries(2):
            running_scores(t, [someone])


def test_the_chart_draws_the_points_series_marks_and_axes(small):
    t, anna, *_ = small
    svg = running_score_svg(running_scores(t)[anna.pk], label="Anna <3")
    assert svg.startswith("<svg") and svg.endswith("</svg>")
    assert "Anna &lt;3" in svg, "labels are escaped"
    assert svg.count("stroke-dasharray") == 2 and "Series 2" in svg
    points = svg.split('<polyline points="')[1].split('"')[0].split()
    assert len(points) == 7, "the start at 0 and one point per deal"
    assert ">0</text>" in svg and ">100</text>" in svg
    assert "No deals yet" in running_score_svg([])


def test_nice_steps():
    assert [nice_step(s) for s in (0, 4, 97, 144, 1000, 2300)] == [1, 1, 20, 50, 200, 500]
