"""referees:correct and referees:void — a referee corrects, voids or restores one game."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from referees.models import Correction, Dispute
from scoring.models import Game

from .helpers import confirm_all, director_of, full_table, referee_of

pytestmark = pytest.mark.django_db


def form_data(game: Game, **changes) -> dict:
    data = {
        "number": game.number,
        "version": game.version,
        "tops_kind": game.tops_kind or "with",
        "reason": "checked with both lists",
    }
    for name in ("declarer_seat", "contract", "tops", "bid", "declarer_points", "declarer_tricks"):
        value = getattr(game, name)
        if value not in (None, ""):
            data[name] = value
    for name in ("passed_out", "hand", "schneider_announced", "schwarz_announced", "ouvert"):
        if getattr(game, name):
            data[name] = "on"
    data.update(changes)
    return {k: v for k, v in data.items() if v is not None}


@pytest.fixture
def signed(client):
    table = full_table(3)
    confirm_all(client, table)
    referee = referee_of(table.series.tournament, "ref")
    client.force_login(referee)
    return table


def url(table, game, name="referees:correct"):
    return reverse(name, args=[table.series.tournament_id, game.pk])


def test_the_page_shows_the_game_its_form_and_history(client, signed):
    game = signed.games.get(number=2)
    page = client.get(url(signed, game)).content.decode()
    assert "Deal 2, table 1, series 1" in page and "version 1" in page
    assert "Ended by an irregularity of" in page and "Settles dispute" in page
    assert "Void the game" in page and "No correction yet." in page


def test_a_confirmed_sheet_is_corrected_with_an_audit_record(client, signed):
    game = signed.games.get(number=2)
    response = client.post(url(signed, game), form_data(game, declarer_points=75), follow=True)
    page = response.content.decode()
    assert "Deal 2: corrected; its score was -60 and is now +30." in page
    assert "card points: 50 → 75" in page and "checked with both lists" in page
    game.refresh_from_db()
    assert (game.declarer_points, game.score, game.version) == (75, 30, 2)
    correction = Correction.objects.get()
    assert correction.made_by.username == "ref"


def test_the_irregularity_is_a_form_field(client, signed):
    game = signed.games.get(number=1)
    client.post(url(signed, game), form_data(game, irregularity="declarer", declarer_points=None))
    game.refresh_from_db()
    assert (game.irregularity, game.score, game.declarer_points) == ("declarer", -96, None)


def test_a_refused_correction_shows_the_rule_and_changes_nothing(client, signed):
    game = signed.games.get(number=1)
    response = client.post(url(signed, game), form_data(game, tops=5))
    assert response.status_code == 422
    assert "2.4.3: a grand has at most 4 tops, not 5" in response.content.decode()
    game.refresh_from_db()
    assert game.tops == 1 and not Correction.objects.exists()


def test_a_reason_is_required(client, signed):
    game = signed.games.get(number=1)
    response = client.post(url(signed, game), form_data(game, declarer_points=95, reason=""))
    assert response.status_code == 422
    game.refresh_from_db()
    assert game.declarer_points == 70


def test_two_referees_correcting_the_same_game_the_later_is_told(client, signed):
    game = signed.games.get(number=1)
    seen = form_data(game)  # both opened the page at version 1
    client.post(url(signed, game), {**seen, "declarer_points": 95})
    response = client.post(url(signed, game), {**seen, "declarer_points": 65})
    assert response.status_code == 422
    assert "deal 1 was changed by someone else meanwhile (version 1 is now 2)" in response.content.decode()
    game.refresh_from_db()
    assert game.declarer_points == 95 and game.version == 2 and Correction.objects.count() == 1


def test_void_and_restore_with_a_dispute(client, signed):
    game = signed.games.get(number=1)
    dispute = Dispute.objects.create(table=signed, game=game, description="dealt out of turn", raised_by="x")
    response = client.post(
        url(signed, game, "referees:void"),
        {"version": 1, "reason": "3.2.11: dealt out of turn", "dispute": dispute.pk, "paragraph": "3.2.11"},
        follow=True,
    )
    said = f"Deal 1: voided; its score was +48 and is now 0. Dispute {dispute.pk} is decided with it."
    assert said in response.content.decode()
    dispute.refresh_from_db()
    assert (dispute.status, dispute.paragraph, dispute.effect) == ("decided", "3.2.11", "voided")
    game.refresh_from_db()
    assert game.voided and game.score == 0
    assert dispute.corrections.get().kind == "void"
    # The table link shows the game struck through, its totals without it.
    sheet = client.get(reverse("table:sheet", args=[signed.token])).content.decode()
    assert 'class=" void"' in sheet
    client.post(url(signed, game, "referees:void"), {"version": 2, "reason": "replayed, same result"})
    game.refresh_from_db()
    assert not game.voided and game.score == 48 and game.version == 3


def test_voiding_with_a_stale_version_is_refused(client, signed):
    game = signed.games.get(number=1)
    response = client.post(url(signed, game, "referees:void"), {"version": 7, "reason": "x"})
    assert response.status_code == 422
    assert "changed by someone else meanwhile" in response.content.decode()
    response = client.post(url(signed, game, "referees:void"), {"version": 1})
    assert response.status_code == 422
    game.refresh_from_db()
    assert not game.voided


def test_the_table_link_cannot_correct_a_game_a_referee_decided(client):
    table = full_table(3)  # not confirmed: the table could still correct its last deal
    user = director_of(table.series.tournament)
    client.force_login(user)
    game = table.games.get(number=3)
    client.post(url(table, game, "referees:void"), {"version": 1, "reason": "x"})
    client.logout()
    response = client.post(
        reverse("table:correct", args=[table.token]),
        form_data(
            Game.objects.get(pk=game.pk),
            passed_out=None,
            declarer_seat=1,
            contract="grand",
            tops=1,
            declarer_points=70,
        ),
    )
    assert "5.5.3: a referee decided deal 3" in response.content.decode()


def test_a_game_of_another_tournament_is_404(client, signed):
    other = full_table(3)
    game = other.games.get(number=1)
    assert client.get(reverse("referees:correct", args=[signed.series.tournament_id, game.pk])).status_code == 404
    response = client.post(
        reverse("referees:void", args=[signed.series.tournament_id, game.pk]), {"version": 1, "reason": "x"}
    )
    assert response.status_code == 404


def test_the_table_link_marks_the_corrected_deal_with_its_reason(client, signed):
    sheet_url = reverse("table:sheet", args=[signed.token])
    client.logout()
    assert "corrected by a referee" not in client.get(sheet_url).content.decode()
    client.force_login(referee_of(signed.series.tournament, "ref2"))
    game = signed.games.get(number=2)
    client.post(url(signed, game), form_data(game, declarer_points=75, reason='scores "checked" <again>'))
    client.logout()
    with CaptureQueriesContext(connection) as captured:
        page = client.get(sheet_url).content.decode()
    # The mark once, in deal 2's row, with the reason as its title (escaped).
    rows = re.findall(r'<tr class="[^"]*">\s*<td class="num">(\d+)</td>(.*?)</tr>', page, re.S)
    assert [number for number, row in rows if "corrected by a referee" in row] == ["2"] and len(rows) == 3
    assert page.count("corrected by a referee") == 1
    assert 'title="scores &quot;checked&quot; &lt;again&gt;">corrected by a referee</em>' in page
    # Read in the games' own query: the mark costs the page no query.
    corrections = [q["sql"] for q in captured if "referees_correction" in q["sql"]]
    assert len(corrections) == 1 and "scoring_game" in corrections[0]
    # A voided deal (here the passed-out one) is marked as well, with the latest reason.
    client.force_login(referee_of(signed.series.tournament, "ref3"))
    client.post(url(signed, signed.games.get(number=3), "referees:void"), {"version": 1, "reason": "dealt twice"})
    client.post(url(signed, game), form_data(Game.objects.get(pk=game.pk), declarer_points=80, reason="recounted"))
    client.logout()
    page = client.get(sheet_url).content.decode()
    assert page.count("corrected by a referee") == 2
    assert 'title="dealt twice"' in page and 'title="recounted"' in page and "&lt;again&gt;" not in page


def test_a_null_game_with_tops_is_refused_by_the_correction_form(client, signed):
    game = signed.games.get(number=1)
    data = form_data(game, contract="null", tops=2, declarer_points=None, declarer_tricks=0)
    response = client.post(url(signed, game), data)
    assert response.status_code == 422
    assert "2.4.3: null games have no tops" in response.content.decode()
    game.refresh_from_db()
    assert game.contract == "grand" and not Correction.objects.exists()


def test_the_correction_form_s_own_field_errors_cite_the_paragraph(client, signed):
    game = signed.games.get(number=1)
    page = client.post(url(signed, game), form_data(game, bid="19", reason="", irregularity="x")).content.decode()
    assert "3.3.2, 5.6.1: 19 is not a game value; bids are game values from 18 to 264" in page
    assert "4.5.10: This field is required." in page
    assert "4.1.4: Select a valid choice. x is not one of the available choices." in page


def test_saving_a_correction_that_settles_a_dispute_closes_it(client, signed):
    """Was: "settles dispute 1" was recorded on the correction, and the dispute stayed open."""
    game = signed.games.get(number=2)
    dispute = Dispute.objects.create(table=signed, game=game, description="points miscounted", raised_by="Seat2")
    data = form_data(game, declarer_points=75, dispute=dispute.pk, paragraph="5.2.2", reason="recounted: 75")
    response = client.post(url(signed, game), data, follow=True)
    assert f"Dispute {dispute.pk} is decided with it." in response.content.decode()
    dispute.refresh_from_db()
    correction = Correction.objects.get()
    assert correction.dispute == dispute and correction.made_by == dispute.decided_by
    assert (dispute.status, dispute.paragraph, dispute.effect, dispute.decision) == (
        "decided",
        "5.2.2",
        "corrected",
        "recounted: 75",
    )
    # A closed dispute is offered no more (in the dispute's own list: its id may be a bid too).
    page = client.get(url(signed, game)).content.decode()
    disputes = re.search(r'<select name="dispute".*?</select>', page, re.S)
    assert disputes and f'<option value="{dispute.pk}"' not in disputes.group(0)


def test_settling_a_dispute_needs_the_paragraph_and_changes_nothing_without(client, signed):
    game = signed.games.get(number=2)
    dispute = Dispute.objects.create(table=signed, game=game, description="points miscounted", raised_by="Seat2")
    response = client.post(url(signed, game), form_data(game, declarer_points=75, dispute=dispute.pk))
    assert response.status_code == 422
    assert "4.5.10: settling a dispute decides it; choose the paragraph" in response.content.decode()
    dispute.refresh_from_db()
    game.refresh_from_db()
    assert dispute.status == "open" and game.declarer_points == 50 and not Correction.objects.exists()


def test_the_correction_form_shows_the_value_as_it_is_filled_in(client, signed):
    game = signed.games.get(number=2)
    page = client.get(url(signed, game)).content.decode()
    preview = url(signed, game, "referees:preview")
    assert f'hx-post="{preview}"' in page and 'id="preview"' in page and "htmx.min.js" in page
    # Hearts with 2, 75 card points: won, 3 x 10; nothing is saved, no reason needed yet.
    shown = client.post(preview, form_data(game, declarer_points=75, reason="")).content.decode()
    assert "won" in shown and "value 30" in shown and "+30" in shown
    game.refresh_from_db()
    assert game.declarer_points == 50 and game.version == 1 and not Correction.objects.exists()
    # A refusal names its field and paragraph, as on the table link.
    null = form_data(game, contract="null", tops=2, declarer_points=None, declarer_tricks=0)
    refused = client.post(preview, null).content.decode()
    assert "Tops: 2.4.3: null games have no tops" in refused


def test_the_preview_is_the_referees_only(client, signed):
    game = signed.games.get(number=2)
    client.logout()
    response = client.post(url(signed, game, "referees:preview"), form_data(game))
    assert response.status_code == 302 and "/login/" in response.url
