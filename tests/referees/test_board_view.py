"""referees:board — open disputes by age, every table's sign-off, the corrections' history."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from referees import corrections
from referees.models import Dispute
from scoring.models import ControlEntry
from tests import factories

from .helpers import confirm_all, full_table, referee_of

pytestmark = pytest.mark.django_db


def test_the_board_lists_open_disputes_oldest_first_tables_and_corrections(client):
    table = full_table(3)
    tournament = table.series.tournament
    referee = referee_of(tournament, "ref")
    young = Dispute.objects.create(table=table, description="young claim", raised_by="A")
    old = Dispute.objects.create(table=table, game=table.games.get(number=2), description="old claim", raised_by="B")
    Dispute.objects.filter(pk=old.pk).update(raised_at=timezone.now() - timedelta(minutes=25))
    Dispute.objects.create(
        table=table, description="closed claim", raised_by="C", status="withdrawn", decided_at=timezone.now()
    )
    game = table.games.get(number=1)
    corrections.correct_game(
        game.pk, expected_version=1, changes={"declarer_points": 95}, user=referee, reason="recount"
    )
    client.force_login(referee)
    page = client.get(reverse("referees:board", args=[tournament.pk])).content.decode()
    assert page.index("old claim") < page.index("young claim")
    assert "25 min" in page
    assert "closed claim" not in page and "withdrawn" in page  # closed ones are listed by status only
    assert "recount" in page and "card points: 70 → 95" in page and "+48 → +72" in page
    assert "schneider: no → yes" in page
    assert "awaiting confirmation" in page
    assert young.pk != old.pk


def test_confirmed_and_awaiting_are_counted(client):
    signed, waiting = full_table(3), None
    tournament = signed.series.tournament
    series = signed.series
    from tournaments.models import Seat, Table

    waiting = Table.objects.create(series=series, number=2, size=3)
    for n in (1, 2, 3):
        Seat.objects.create(table=waiting, series=series, number=n, player=factories.player())
    for number in (1, 2, 3):
        factories.game(waiting, number, passed_out=True)
    confirm_all(client, signed)
    client.force_login(referee_of(tournament))
    response = client.get(reverse("referees:board", args=[tournament.pk]))
    assert (response.context["confirmed"], response.context["awaiting"]) == (1, 1)
    assert 'class="tile confirmed"' in response.content.decode()
    assert 'class="tile awaiting"' in response.content.decode()


def test_a_fixed_number_of_queries(client, django_assert_max_num_queries):
    tournament, _series = factories.drawn(players=24, rounds_per_series=1)
    referee = referee_of(tournament)
    for table in _series.tables.all():
        for number in range(1, table.deals + 1):
            game = factories.game(table, number, passed_out=True)
        Dispute.objects.create(table=table, game=game, description="x", raised_by="x")
        corrections.void_game(game.pk, expected_version=1, user=referee, reason="x")
    client.force_login(referee)
    # Login and access (5), disputes (2), series, the tables' progress (3, and the seats
    # locked by wrong PINs once sheets await confirmation: 1), corrections (2).
    with django_assert_max_num_queries(15):
        assert client.get(reverse("referees:board", args=[tournament.pk])).status_code == 200


def test_the_board_names_the_tables_whose_second_list_differs(client):
    table = full_table(3)
    game = table.games.filter(passed_out=False).order_by("number").first()
    entry = ControlEntry(table=table, number=game.number, passed_out=True)
    entry.apply_rules(table.size)
    entry.save()
    client.force_login(referee_of(table.series.tournament))
    page = client.get(reverse("referees:board", args=[table.series.tournament_id])).content.decode()
    assert f"≠ {game.number}</span>" in page
