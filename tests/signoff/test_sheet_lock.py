"""A confirmed sheet is locked: no URL of the table link changes it any more (5.5.3)."""

from __future__ import annotations

import uuid

import pytest
from django.urls import reverse

from scoring import entry
from scoring.forms import GameForm
from scoring.models import Game
from signoff.confirm import mark_on_paper
from skat.rules import RuleError
from tests import factories
from tests.referees.helpers import confirm_all, full_table, open_table

pytestmark = pytest.mark.django_db

NEW_GAME = {"declarer_seat": 1, "contract": "grand", "tops": 1, "tops_kind": "with", "declarer_points": 70}


def snapshot(table):
    return list(Game.objects.filter(table=table).order_by("number").values())


@pytest.fixture(params=["pins", "paper"])
def locked(request, client):
    """A complete sheet, confirmed by every player's PIN or signed on paper."""
    table = full_table(3)
    if request.param == "pins":
        confirm_all(client, table)
    else:
        mark_on_paper(table, by="referee")
    return table


def test_the_sheet_shows_no_form_and_no_correct_link(client, locked):
    page = client.get(reverse("table:sheet", args=[locked.token])).content.decode()
    assert "Sheet confirmed" in page and "the sheet is locked" in page
    assert 'id="game-form"' not in page
    assert reverse("table:correct", args=[locked.token]) not in page


def test_correcting_the_last_deal_is_refused(client, locked):
    before = snapshot(locked)
    response = client.get(reverse("table:correct", args=[locked.token]), follow=True)
    assert "5.5.3: the players confirmed this sheet" in response.content.decode()
    last = locked.games.get(number=3)
    response = client.post(
        reverse("table:correct", args=[locked.token]), {"number": 3, "version": last.version, **NEW_GAME}, follow=True
    )
    assert "5.5.3" in response.content.decode()
    assert snapshot(locked) == before


def test_the_preview_refuses(client, locked):
    response = client.post(reverse("table:preview", args=[locked.token]), {"number": 3, **NEW_GAME})
    page = response.content.decode()
    assert "5.5.3" in page and "value" not in page


def test_the_entry_functions_refuse_with_5_5_3():
    """Below the views: scoring.entry.add_game and correct_last_game themselves refuse a confirmed sheet."""
    table = open_table(4)  # four deals, three entered, signed on paper when the series was finished early
    for number in (1, 2, 3):
        factories.game(table, number, passed_out=True)
    table.series.status = "finished"
    table.series.save()
    mark_on_paper(table, by="test")
    table.series.status = "running"  # even were the series reopened, the sign-off holds
    table.series.save()
    form = GameForm(
        {"number": 4, "client_id": str(uuid.uuid4()), **NEW_GAME, "declarer_seat": 1},
        table=table,
        players={1: "a", 2: "b", 3: "c"},
    )
    assert form.is_valid(), form.errors
    with pytest.raises(RuleError) as caught:
        entry.add_game(form, entered_by="test")
    assert caught.value.paragraph == "5.5.3" and "confirmed" in caught.value.message
    last = table.games.get(number=3)
    form = GameForm(
        {"number": 3, "version": last.version, **NEW_GAME, "declarer_seat": 1},
        instance=last,
        table=table,
        players={1: "a", 2: "b", 4: "d"},
    )
    assert form.is_valid(), form.errors
    with pytest.raises(RuleError) as caught:
        entry.correct_last_game(form, entered_by="test")
    assert caught.value.paragraph == "5.5.3"
    assert table.games.count() == 3


def test_before_confirmation_the_table_still_corrects_its_last_deal(client):
    table = full_table(3)
    last = table.games.get(number=3)
    response = client.post(
        reverse("table:correct", args=[table.token]), {"number": 3, "version": last.version, **NEW_GAME}
    )
    assert response.status_code == 302
    assert table.games.get(number=3).contract == "grand"
