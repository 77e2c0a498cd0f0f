"""Team standings: a team scores the sum of its players' results (DOMAIN, "Teams and leagues")."""

from __future__ import annotations

import random
from collections import defaultdict

import pytest

from draw.series import draw_series
from signoff.confirm import mark_on_paper
from skat.rating import Rating
from standings.places import standings, team_standings
from tests import factories
from tests.standings.test_places import engine_ratings, play
from tournaments.models import Series, Team

pytestmark = pytest.mark.django_db


def with_teams(t, size: int, count: int) -> list[Team]:
    """``count`` teams of ``size`` of the tournament's registrations (the rest play alone)."""
    registrations = list(t.registrations.order_by("pk"))
    teams = []
    for index in range(count):
        team = Team.objects.create(tournament=t, name=f"Team {chr(65 + index)}")
        for registration in registrations[index * size : (index + 1) * size]:
            registration.team = team
            registration.save(update_fields=["team"])
        teams.append(team)
    return teams


def two_series(players: int = 19, teams: int = 4, team_size: int = 4, seed: int = 5):
    t = factories.tournament(series_count=2)
    factories.registered(t, players)
    with_teams(t, team_size, teams)
    rng = random.Random(seed)
    first = draw_series(t)
    play(first, rng)
    first.status = Series.Status.FINISHED
    first.save(update_fields=["status"])
    play(draw_series(t, Series.Method.SEEDED, provisional=True), rng, share=0.5)
    return t


def engine_team_ratings(t, series_number=None) -> dict[int, Rating]:
    """The oracle: the engine's player ratings added up per team."""
    totals: dict[int, Rating] = defaultdict(Rating)
    team_of = dict(t.registrations.filter(team__isnull=False).values_list("player_id", "team_id"))
    for player, rating in engine_ratings(t, series_number).items():
        if player in team_of:
            totals[team_of[player]] = totals[team_of[player]] + rating
    return dict(totals)


@pytest.mark.parametrize("series_number", [None, 1, 2])
def test_a_team_scores_the_sum_of_its_players(series_number):
    t = two_series()
    ranked = team_standings(t, series_number)
    assert {r.item.team_id: r.rating for r in ranked} == engine_team_ratings(t, series_number)
    assert [r.place for r in ranked] == [1, 2, 3, 4]
    assert [r.rating.rating for r in ranked] == sorted((r.rating.rating for r in ranked), reverse=True)
    players = {r.item.player_id: r for r in standings(t, series_number)}
    for entry in ranked:
        members = t.registrations.filter(team_id=entry.item.team_id).values_list("player_id", flat=True)
        # Its players best first, each with his own rating; the tables added up.
        expected = sorted((players[p] for p in members if p in players), key=lambda r: r.place)
        assert entry.item.members == [(r.item.name, r.rating.rating) for r in expected]
        assert entry.item.tables == sum(r.item.tables for r in expected)
        assert entry.item.players == ", ".join(r.item.name for r in expected)


def test_players_without_a_team_and_teams_without_players_are_left_out():
    t = factories.tournament()
    factories.registered(t, 8)
    teams = with_teams(t, 3, 2)  # two players play alone
    Team.objects.create(tournament=t, name="Nobody plays")
    series = draw_series(t)
    play(series, random.Random(1))
    ranked = team_standings(t)
    assert {r.item.name for r in ranked} == {team.name for team in teams}
    assert sum(len(r.item.members) for r in ranked) == 6


def test_a_substitute_counts_in_the_series_he_played():
    """Leagues allow substitutes: whoever of the team sat at a table counts for it."""
    t = factories.tournament(series_count=2)
    registrations = factories.registered(t, 8)
    with_teams(t, 5, 1)
    substitute = registrations[4]
    substitute.first_series = 2
    substitute.save(update_fields=["first_series"])
    starter = registrations[0]
    starter.withdrawn_after_series = 1
    starter.save(update_fields=["withdrawn_after_series"])
    rng = random.Random(3)
    first = draw_series(t)
    play(first, rng)
    first.status = Series.Status.FINISHED
    first.save(update_fields=["status"])
    play(draw_series(t), rng)
    names = {number: {name for name, _rating in team_standings(t, number)[0].item.members} for number in (1, 2, None)}
    assert starter.player.name in names[1] and substitute.player.name not in names[1]
    assert substitute.player.name in names[2] and starter.player.name not in names[2]
    assert len(names[None]) == 5
    assert {r.item.team_id: r.rating for r in team_standings(t)} == engine_team_ratings(t)


def test_equal_teams_are_ranked_by_the_documented_lot():
    """No games yet: every team stands at zero, the lot orders them, the same every time."""
    t = factories.tournament(lot_seed=11)
    factories.registered(t, 12)
    with_teams(t, 3, 4)
    draw_series(t)
    first = [r.item.name for r in team_standings(t)]
    assert [r.decided_by for r in team_standings(t)] == [None, "lot", "lot", "lot"]
    assert [r.item.name for r in team_standings(t)] == first
    t.lot_seed = 12
    t.save(update_fields=["lot_seed"])
    orders = {tuple(r.item.name for r in team_standings(t))}
    for seed in range(13, 20):
        t.lot_seed = seed
        t.save(update_fields=["lot_seed"])
        orders.add(tuple(r.item.name for r in team_standings(t)))
    assert len(orders) > 1  # the seed draws the lot, not the team's name or id order


def test_a_team_is_provisional_while_a_sheet_of_its_players_is_unconfirmed():
    t = factories.tournament()
    factories.registered(t, 8)
    with_teams(t, 4, 2)
    series = draw_series(t)
    play(series, random.Random(2))
    assert all(r.item.unconfirmed == 4 for r in team_standings(t))
    for table in series.tables.all():
        mark_on_paper(table, by="test")
    assert all(r.item.unconfirmed == 0 for r in team_standings(t))


def test_one_query_more_than_the_players_standings(django_assert_num_queries):
    t = two_series()
    players = standings(t)
    with django_assert_num_queries(1):
        ranked = team_standings(t, players=players)
    assert ranked == team_standings(t)
