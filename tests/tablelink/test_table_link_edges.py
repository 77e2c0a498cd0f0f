"""The table link's rough edges, as views: a correction to passed out, a second
device's other values told and counted, "entered by" in no language, a forced bid, the
phone's checks, the sheet abbreviated for a phone."""

from __future__ import annotations

import json
import uuid

import pytest
from django.urls import reverse
from django.utils import translation

from dashboard.progress import finish_check, table_progress
from scoring import entry
from scoring.describe import game_short_html
from scoring.forms import phone_checks
from scoring.lists import differing_deals
from scoring.models import ConflictingEntry, Game
from signoff import confirm as signoff
from signoff.pins import seat_pin
from tests import factories
from tests.referees.helpers import full_table

from .test_table_sheet_view import post_game

pytestmark = pytest.mark.django_db

GRAND = {"declarer_seat": 1, "contract": "grand", "tops": 1}


def test_the_last_deal_is_corrected_to_passed_out(client):
    table = factories.table_of(3)
    game = factories.game(table, 1, **GRAND, declarer_points=70)
    url = reverse("table:correct", args=[table.token])
    page = client.get(url).content.decode()
    assert 'name="passed_out"' in page and 'type="checkbox"' in page  # the control to mark it
    response = client.post(url, {"number": 1, "version": game.version, "passed_out": "on"}, follow=True)
    assert "Deal 1 corrected: passed out." in response.content.decode()
    game.refresh_from_db()
    assert game.passed_out and game.declarer_seat is None and game.score == 0


def test_a_second_device_with_other_values_is_told_each_difference_and_it_counts(client):
    table = factories.table_of(3)
    factories.game(table, 1, **GRAND, declarer_points=88)
    response = post_game(client, table, 1, **GRAND, declarer_points=92, htmx=True)
    assert response.status_code == 409
    page = response.content.decode()
    assert "Deal 1 was entered on another device with other values" in page
    assert "declarer&#x27;s card points: 88 on the sheet, 92 from this phone" in page
    assert "score: +48 on the sheet, +72 from this phone" in page  # 92: schneider
    assert differing_deals([table.pk]) == {table.pk: [1]}  # the dashboard's "second list differs"
    sent = ConflictingEntry.objects.get(table=table)
    assert (sent.number, sent.declarer_points, sent.entered_by) == (1, 92, "table-link")
    # The sheet's page shows it, and the players cannot confirm over it.
    sheet = client.get(reverse("table:sheet", args=[table.token])).content.decode()
    assert "Another device sent other values for 1 deal" in sheet
    assert "declarer&#x27;s card points 88 / 92" in sheet
    assert signoff.undecided(table) == ((1,), ())


def test_the_same_values_from_a_second_device_are_no_difference(client):
    table = factories.table_of(3)
    factories.game(table, 1, **GRAND, declarer_points=88)
    page = post_game(client, table, 1, **GRAND, declarer_points=88, htmx=True).content.decode()
    assert "Deal 1 was entered on another device: check it" in page
    assert not ConflictingEntry.objects.exists() and differing_deals([table.pk]) == {}


def test_other_values_on_the_same_line_of_the_sheet_are_no_difference(client):
    """Two phones on the sheet's own link counted 88 and 89 card points of the same won
    grand: the same line of the sheet (declarer, game, value, won, score), as the second
    list is compared. Told that the deal was entered on another device, nothing to settle:
    no "second list differs" on the dashboard, no PINs refused."""
    table = factories.table_of(3)
    factories.game(table, 1, **GRAND, declarer_points=88)
    response = post_game(client, table, 1, **GRAND, declarer_points=89, htmx=True)
    assert response.status_code == 409
    page = response.content.decode()
    assert "Deal 1 was entered on another device: check it" in page
    assert "other values" not in page
    assert not ConflictingEntry.objects.exists() and differing_deals([table.pk]) == {}
    assert signoff.undecided(table) == ((), ())


def test_an_entry_kept_before_on_the_same_line_counts_no_more(client):
    table = factories.table_of(3)
    game = factories.game(table, 1, **GRAND, declarer_points=88)
    sent = ConflictingEntry(table=table, number=1, sheet_version=game.version, **GRAND, declarer_points=89)
    sent.save()
    assert differing_deals([table.pk]) == {}
    assert (
        "Another device sent other values"
        not in client.get(reverse("table:sheet", args=[table.token])).content.decode()
    )


def test_a_resend_is_kept_once_and_a_correction_settles_it(client):
    table = factories.table_of(3)
    factories.game(table, 1, **GRAND, declarer_points=88)
    client_id = uuid.uuid4()
    for _ in range(2):
        post_game(client, table, 1, client_id=client_id, **GRAND, declarer_points=92, htmx=True)
    assert ConflictingEntry.objects.count() == 1
    game = Game.objects.get(table=table)
    client.post(
        reverse("table:correct", args=[table.token]),
        {"number": 1, "version": game.version, **GRAND, "tops_kind": "with", "declarer_points": 92},
    )
    assert Game.objects.get(table=table).declarer_points == 92
    assert differing_deals([table.pk]) == {}  # the table agreed: corrected


def test_entered_by_is_a_code_shown_in_the_readers_language(client):
    table = factories.table_of(3)
    client.post(
        reverse("table:sheet", args=[table.token]),
        {"number": 1, "client_id": str(uuid.uuid4()), "tops_kind": "with", **GRAND, "declarer_points": 70},
        HTTP_ACCEPT_LANGUAGE="de",
    )
    game = Game.objects.get(table=table)
    assert game.entered_by == "table-link"  # not "Tisch-Link"
    with translation.override("de"):
        assert game.entered_by_label == "Tisch-Link"
    with translation.override("en"):
        assert game.entered_by_label == "table link"


def test_a_forced_bid_that_is_no_game_value_gets_the_bid_values_rule(client):
    table = factories.table_of(3)
    page = post_game(client, table, 1, **GRAND, declarer_points=70, bid="19").content.decode()
    assert "3.3.2, 5.6.1: 19 is not a game value; bids are game values from 18 to 264" in page
    assert "Select a valid choice" not in page and "5.4.1" not in page


def test_the_phone_gets_the_rules_ranges_and_their_messages(client):
    page = client.get(reverse("table:sheet", args=[factories.table_of(3).token])).content.decode()
    assert 'id="entry-checks"' in page
    checks = phone_checks()
    assert checks["tops"]["grand"]["max"] == 4 and checks["tops"]["suit"]["max"] == 11
    assert checks["tops"]["suit"]["under"] == (
        "Tops: 2.4.1: a suit game is played with or without at least 1 top, not %(value)s"
    )
    assert checks["declarer_points"]["message"].endswith("1.2.2: %(value)s is not between 0 and 120 card points")
    assert json.loads(json.dumps(checks)) == checks
    assert 'for="id_tops"' in page  # the tops box is labelled


def test_the_sheet_abbreviates_the_game_for_a_phone_with_its_words_as_titles(client):
    table = factories.table_of(3)
    game = factories.game(
        table, 1, declarer_seat=1, contract="spades", tops_kind="without", tops=3, hand=True, declarer_points=70
    )
    assert str(game_short_html(game)) == (
        '<abbr title="Spades">♠</abbr> <abbr title="without 3">wo3</abbr> <abbr title="hand">H</abbr> '
        '<span class="muted">= 55</span>'
    )
    page = client.get(reverse("table:sheet", args=[table.token])).content.decode()
    assert '<span class="game-full">Spades without 3 hand' in page
    assert 'class="sheet-legend' in page and "<b>wo</b> without" in page


def test_a_link_holder_cannot_grow_the_other_values_without_end(client):
    """Each post carries a new client id: the same values are kept once, and only a few
    other entries per deal (bounded memory: anyone with the link can post)."""
    table = factories.table_of(3)
    factories.game(table, 1, **GRAND, declarer_points=88)
    for _ in range(3):
        assert post_game(client, table, 1, **GRAND, declarer_points=92, htmx=True).status_code == 409
    assert ConflictingEntry.objects.count() == 1
    for points in range(93, 103):
        assert post_game(client, table, 1, **GRAND, declarer_points=points, htmx=True).status_code == 409
    assert ConflictingEntry.objects.count() == entry.MAX_CONFLICTS
    assert differing_deals([table.pk]) == {table.pk: [1]}


def test_a_referee_s_decision_and_the_confirmation_settle_the_other_values(client):
    """Once a referee decided that the sheet stands, the table page no longer says the
    players cannot confirm; once they confirmed, the dashboard and the series' finish no
    longer count the table's lists as differing."""
    table = full_table(3)
    post_game(client, table, 2, declarer_seat=2, contract="hearts", tops=2, declarer_points=70, htmx=True)
    assert differing_deals([table.pk]) == {table.pk: [2]}
    signoff.accept_sheet(table, by="ref", reason="the sheet is right")
    page = client.get(reverse("table:sheet", args=[table.token])).content.decode()
    assert "Another device sent other values" not in page
    for seat in (1, 2, 3):
        signoff.confirm_seat(table, seat, seat_pin(table, seat))
    assert differing_deals([table.pk]) == {}
    assert not finish_check(table_progress(table.series)).lists_differ
