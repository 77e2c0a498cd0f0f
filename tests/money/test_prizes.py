"""The prize table (Rules and fees), the prize list on the fee account and its PDF to sign."""

from __future__ import annotations

import io
import random
from decimal import Decimal

import pytest
from django.urls import reverse
from pypdf import PdfReader

from draw.series import draw_series
from signoff.confirm import mark_on_paper
from standings.places import standings
from tests import factories
from tests.printing.test_views import rules_post
from tests.standings.test_places import play
from tournaments.models import Prize, Series

pytestmark = pytest.mark.django_db


def finished(director, players: int = 11, **fields):
    """A tournament of one finished series, every sheet signed: its ranking is final."""
    fields.setdefault("entry_fee", Decimal("10.00"))
    fields.setdefault("prize_pool_percent", 80)
    t = factories.tournament(directors=[director], series_count=1, **fields)
    factories.registered(t, players)
    series = draw_series(t)
    play(series, random.Random(6))
    series.status = Series.Status.FINISHED
    series.save(update_fields=["status"])
    for table in series.tables.all():
        mark_on_paper(table, by="test")
    return t


def prizes_post(t, rows, **extra):
    data = rules_post(t, **{"prizes-TOTAL_FORMS": len(rows), "prizes-INITIAL_FORMS": 0})
    for index, (place, percent, amount) in enumerate(rows):
        data |= {f"prizes-{index}-place": place, f"prizes-{index}-percent": percent, f"prizes-{index}-amount": amount}
    return data | extra


def test_the_rules_page_saves_the_prize_table(client, director):
    t = factories.tournament(directors=[director])
    url = reverse("director:edit", args=[t.pk])
    assert "prizes-TOTAL_FORMS" in client.get(url).content.decode()
    response = client.post(url, prizes_post(t, [(1, "50", ""), (2, "30", ""), (3, "", "20.00")]))
    assert response.status_code == 302
    assert [(p.place, p.percent, p.amount) for p in t.prizes.all()] == [
        (1, Decimal("50.00"), None),
        (2, Decimal("30.00"), None),
        (3, None, Decimal("20.00")),
    ]


def test_a_prize_table_is_started_with_ten_rows_and_ten_more_come_on_asking(client, director):
    t = factories.tournament(directors=[director])
    url = reverse("director:edit", args=[t.pk])
    page = client.get(url).content.decode()
    assert 'name="prizes-TOTAL_FORMS" value="10"' in page
    response = client.post(url, prizes_post(t, [(1, "50", ""), (2, "30", "")], more="prizes"))
    assert response.status_code == 302 and response.url.endswith("?more=prizes#prizes")
    assert t.prizes.count() == 2
    # Two saved, three empty as usual, and ten more asked for.
    assert 'name="prizes-TOTAL_FORMS" value="15"' in client.get(response.url).content.decode()
    assert 'name="prizes-TOTAL_FORMS" value="5"' in client.get(url).content.decode()


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        ([(1, "60", ""), (2, "50", "")], "The shares of the prize pool add up to 110 %: more than the whole pool."),
        ([(1, "50", "20")], "Give either a share of the prize pool or a fixed amount for place 1."),
        ([(1, "", "")], "Give either a share of the prize pool or a fixed amount for place 1."),
        ([(1, "101", "")], "Ensure this value is less than or equal to 100."),
        ([(1, "10", ""), (1, "", "5")], "place: place 1 of the overall ranking has two prizes."),
        ([(0, "10", "")], "Ensure this value is greater than or equal to 1."),
    ],
)
def test_a_prize_table_that_cannot_be_paid_out_is_refused_and_nothing_saved(client, director, rows, message):
    t = factories.tournament(directors=[director])
    t.prizes.create(place=1, percent=Decimal("40"))
    response = client.post(reverse("director:edit", args=[t.pk]), prizes_post(t, rows, name="Renamed"))
    assert response.status_code == 200
    assert message in response.content.decode()
    t.refresh_from_db()
    assert t.name != "Renamed" and [(p.place, p.percent) for p in t.prizes.all()] == [(1, Decimal("40.00"))]


def test_an_older_form_without_the_prize_table_leaves_it_as_it_is(client, director):
    t = factories.tournament(directors=[director])
    t.prizes.create(place=1, amount=Decimal("100"))
    data = {k: v for k, v in rules_post(t).items()}
    assert client.post(reverse("director:edit", args=[t.pk]), data).status_code == 302
    assert t.prizes.count() == 1


def test_the_fee_account_lists_who_gets_which_prize(client, director):
    t = finished(director)
    t.prizes.create(place=1, percent=Decimal("50"))
    t.prizes.create(place=2, percent=Decimal("30"))
    t.prizes.create(place=3, amount=Decimal("5.00"))
    response = client.get(reverse("director:fee_account", args=[t.pk]))
    assert response.status_code == 200
    pool = response.context["distribution"].prize_pool
    payout = response.context["payout"]
    ranked = standings(t)
    assert [(w.place, w.name, w.rating) for w in payout.winners] == [
        (e.place, e.item.name, e.rating.rating) for e in ranked[:3]
    ]
    cent = Decimal("0.01")
    assert [w.amount for w in payout.winners] == [
        (pool / 2).quantize(cent, rounding="ROUND_DOWN"),
        (pool * 3 / 10).quantize(cent, rounding="ROUND_DOWN"),
        Decimal("5.00"),
    ]
    page = response.content.decode()
    assert ranked[0].item.name in page and "Prize list (PDF) to sign" in page
    assert "Provisional" not in page  # every sheet confirmed, the series finished


def test_the_prize_list_says_when_the_ranking_is_still_provisional(client, director):
    t = finished(director)
    t.prizes.create(place=1, percent=Decimal("100"))
    t.series.update(status=Series.Status.RUNNING)
    page = client.get(reverse("director:fee_account", args=[t.pk])).content.decode()
    assert "Provisional: the ranking is not final yet" in page


def test_without_a_prize_table_the_fee_account_says_where_to_make_one(client, director):
    t = finished(director)
    page = client.get(reverse("director:fee_account", args=[t.pk])).content.decode()
    assert "No prize table yet" in page and reverse("director:edit", args=[t.pk]) in page


def test_a_broken_prize_table_is_named_not_a_500(client, director):
    """The admin saves rows one by one: shares above 100 % are possible there."""
    t = finished(director)
    Prize.objects.bulk_create([Prize(tournament=t, place=1, percent=70), Prize(tournament=t, place=2, percent=40)])
    page = client.get(reverse("director:fee_account", args=[t.pk])).content.decode()
    assert "The prize table cannot be paid out" in page and "the shares add up to 110 %" in page
    response = client.get(reverse("director:prizes_pdf", args=[t.pk]))
    assert response.status_code == 400 and "prizes: percent: the shares add up to 110 %" in response.content.decode()


def test_the_prize_list_pdf_has_a_line_to_sign_for_every_winner(client, director):
    t = finished(director, name="Herbstpokal", prize_pool_percent=100)
    t.prizes.create(place=1, amount=Decimal("500.00"))  # more than the pool: the organiser adds
    t.prizes.create(place=2, percent=Decimal("10"))
    response = client.get(reverse("director:prizes_pdf", args=[t.pk]))
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert 'filename="herbstpokal-prize-list.pdf"' in response["Content-Disposition"]
    text = PdfReader(io.BytesIO(response.content)).pages[0].extract_text()
    first, second = standings(t)[:2]
    assert "Prize list" in text and "Received (signature)" in text
    assert f"1. {first.item.name}" in text and "500.00" in text
    assert f"2. {second.item.name}" in text
    assert "Added by the organiser" in text and "Director's signature:" in text
    assert "All sheets are confirmed: the standings are final." in text


def test_the_fee_account_is_a_fixed_number_of_queries(client, director, django_assert_max_num_queries):
    counts = []
    for players in (11, 23):
        t = finished(director, players=players)
        for place in range(1, 6):
            t.prizes.create(place=place, percent=Decimal("10"))
        with django_assert_max_num_queries(25) as captured:
            assert client.get(reverse("director:fee_account", args=[t.pk])).status_code == 200
        counts.append(len(captured))
    assert counts[0] == counts[1]


def test_a_category_has_prizes_of_its_own_on_the_fee_account_and_the_pdf(client, director):
    """The best woman, place 1 of the category's own ranking, besides the
    overall prizes and from the same pool."""
    t = finished(director)
    women = t.categories.create(name="Damen")
    ranked = standings(t)
    best_woman = ranked[4].item
    t.registrations.filter(player_id__in=[best_woman.player_id, ranked[7].item.player_id]).update(category=women)
    url = reverse("director:edit", args=[t.pk])
    data = rules_post(t, **{"prizes-TOTAL_FORMS": 2, "prizes-INITIAL_FORMS": 0})
    data |= {"prizes-0-place": 1, "prizes-0-amount": "30.00", "prizes-0-percent": ""}
    data |= {"prizes-1-place": 1, "prizes-1-amount": "10.00", "prizes-1-percent": "", "prizes-1-category": women.pk}
    assert client.post(url, data).status_code == 302
    # Another tournament's category is no choice here.
    other = factories.tournament().categories.create(name="Senioren")
    refused = client.post(url, data | {"prizes-1-category": other.pk})
    assert refused.status_code == 200 and "Select a valid choice" in refused.content.decode()
    payout = client.get(reverse("director:fee_account", args=[t.pk])).context["payout"]
    assert [(w.place, w.name, w.amount, w.category) for w in payout.winners] == [
        (1, ranked[0].item.name, Decimal("30.00"), ""),
        (1, best_woman.name, Decimal("10.00"), "Damen"),
    ]
    assert payout.prizes.paid_out == Decimal("40.00")
    page = client.get(reverse("director:fee_account", args=[t.pk])).content.decode()
    assert "Prizes of the category Damen (its own ranking)" in page
    text = (
        PdfReader(io.BytesIO(client.get(reverse("director:prizes_pdf", args=[t.pk])).content)).pages[0].extract_text()
    )
    assert f"1. {best_woman.name} (Damen)" in text
