"""Only confirmed sheets are final: the standings mark provisional results, the dashboard
tiles show confirmed and awaiting tables (director:standings, director:detail)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from referees import corrections
from signoff.confirm import mark_on_paper
from standings.places import finality, standings
from tests import factories
from tournaments.models import Seat, Series, Table, Tournament

from .helpers import confirm_all, director_of, full_table

pytestmark = pytest.mark.django_db


def two_tables():
    first = full_table(3)
    series = first.series
    second = Table.objects.create(series=series, number=2, size=3)
    for n in (1, 2, 3):
        Seat.objects.create(table=second, series=series, number=n, player=factories.player(f"Second{n}"))
    for number in (1, 2, 3):
        factories.game(second, number, declarer_seat=1, contract="diamonds", tops=1, declarer_points=61)
    return first, second


def test_players_of_unconfirmed_sheets_are_provisional(client):
    first, second = two_tables()
    tournament = first.series.tournament
    mark_on_paper(first, by="test")
    by_name = {r.item.name: r.item for r in standings(tournament)}
    assert by_name["Seat1"].unconfirmed == 0 and by_name["Second1"].unconfirmed == 1
    assert (finality(tournament).confirmed, finality(tournament).sheets) == (1, 2)
    assert (finality(tournament, 1).confirmed, finality(tournament, 1).sheets) == (1, 2)
    client.force_login(director_of(tournament))
    page = client.get(reverse("director:standings", args=[tournament.pk])).content.decode()
    assert "1 of 2 sheets confirmed; results from unconfirmed sheets are provisional." in page
    assert "provisional (unconfirmed sheets: 1)" in page and "final" in page
    assert len(re.findall(r'<tr class="[^"]*provisional', page)) == 3
    confirm_all(client, second)
    page = client.get(reverse("director:standings", args=[tournament.pk])).content.decode()
    # Every sheet confirmed, but the series is still running and a second one planned.
    assert "All 2 sheets so far are confirmed. Series not finished yet: 1, 2; the standings are provisional." in page
    Series.objects.filter(pk=first.series_id).update(status=Series.Status.FINISHED)
    Tournament.objects.filter(pk=tournament.pk).update(series_count=1)
    page = client.get(reverse("director:standings", args=[tournament.pk])).content.decode()
    assert "All sheets are confirmed: the standings are final." in page and "provisional" not in page


def test_the_standings_count_a_voided_game_as_nothing(client):
    table = full_table(3)
    tournament = table.series.tournament
    before = {r.item.name: r.item.rating for r in standings(tournament)}
    game = table.games.get(number=2)  # Seat2 lost -60: the others got 40 each
    corrections.void_game(game.pk, expected_version=1, user=factories.user(), reason="x")
    after = {r.item.name: r.item.rating for r in standings(tournament)}
    assert (before["Seat2"].points, before["Seat2"].lost, before["Seat1"].bonus) == (-60, 1, 40)
    assert (after["Seat2"].points, after["Seat2"].lost, after["Seat1"].bonus) == (0, 0, 0)
    assert after["Seat1"].points == before["Seat1"].points == 48


def test_the_dashboard_tiles_show_confirmed_and_awaiting(client):
    first, _second = two_tables()
    tournament = first.series.tournament
    confirm_all(client, first)
    client.force_login(director_of(tournament))
    page = client.get(reverse("director:detail", args=[tournament.pk])).content.decode()
    assert "1 sheet confirmed, 1 awaiting confirmation." in page
    assert 'class="tile confirmed"' in page and 'class="tile awaiting"' in page
    assert "✓ confirmed" in page
    tiles = client.get(reverse("director:progress", args=[tournament.pk])).content.decode()
    assert 'class="tile confirmed"' in tiles and 'class="tile awaiting"' in tiles
