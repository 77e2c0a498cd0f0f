"""A category's own ranking: the standings page, the ranking list PDF, the league export."""

from __future__ import annotations

import io

import pypdf
import pytest
from django.urls import reverse
from openpyxl import load_workbook

from standings.places import standings
from tests import factories
from tournaments.models import Category, Registration

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(client):
    director = factories.user("director")
    client.force_login(director)
    t, series = factories.drawn(4, directors=[director])
    table = series.tables.get()
    factories.game(table, 1, declarer_seat=2, contract="grand", tops=1, tops_kind="with", declarer_points=80)
    women = Category.objects.create(tournament=t, name="Damen")
    seat_2, seat_3 = (table.seats.get(number=n).player for n in (2, 3))
    Registration.objects.filter(tournament=t, player__in=[seat_2, seat_3]).update(category=women)
    return t, women, seat_2, seat_3


def test_the_standings_rank_a_category_on_its_own(client, played):
    t, women, winner, other = played
    page = client.get(reverse("director:standings", args=[t.pk]), {"category": women.pk}).content.decode()
    assert winner.name in page and other.name in page
    rows = [r for r in page.split("<tr") if winner.name in r or other.name in r]
    assert len(page.split("<tbody")[1].split("<tr")) - 1 == 2, "only the category's players"
    assert ">1<" in rows[0] or ">1.<" in rows[0]


def test_an_unknown_category_is_refused_with_its_name(client, played):
    t, women, *_ = played
    response = client.get(reverse("director:standings", args=[t.pk]), {"category": "999"})
    assert response.status_code == 400
    assert f"category: 999 is not a category of this tournament (its categories: {women.pk} (Damen))" in (
        response.content.decode()
    )


def test_the_ranking_list_and_the_league_export_show_the_category(client, played):
    t, women, winner, other = played
    response = client.get(reverse("director:standings_pdf", args=[t.pk]), {"category": women.pk, "appendix": "0"})
    text = "".join(p.extract_text() for p in pypdf.PdfReader(io.BytesIO(response.content)).pages)
    assert "Damen" in text and winner.name in text and other.name in text
    response = client.get(reverse("director:export_xlsx", args=[t.pk]), {"category": women.pk})
    book = load_workbook(io.BytesIO(b"".join(response.streaming_content)), read_only=True)
    ranking = list(book["Ranking"].iter_rows(min_row=2, values_only=True))
    assert [row[0] for row in ranking] == [1, 2] and {row[1] for row in ranking} == {winner.name, other.name}


def test_the_start_list_is_by_surname_with_table_and_seat(client, played):
    t, *_ = played
    response = client.get(reverse("director:start_list_pdf", args=[t.pk]))
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    text = "".join(p.extract_text() for p in pypdf.PdfReader(io.BytesIO(response.content)).pages)
    assert "Start list" in text and "1/1" in text and "1/4" in text


def test_each_categorys_winner_is_the_first_of_the_ranking_in_it_placed_1():
    """category_winners: by the categories' names, the first ranked member each, placed 1;
    a category without a ranked member is left out."""
    from standings.categories import category_winners
    from tests.transfer.test_exports import finished_tournament

    t = finished_tournament(players=6, series=1)
    ranked = standings(t)
    seniors, women, empty = (t.categories.create(name=n) for n in ("Senioren", "Damen", "Junioren"))
    for entry, category in ((ranked[3], women), (ranked[5], women), (ranked[1], seniors)):
        Registration.objects.filter(tournament=t, player_id=entry.item.player_id).update(category=category)
    winners = category_winners(t, ranked)
    assert [(c.name, e.item.player_id, e.place) for c, e in winners] == [
        ("Damen", ranked[3].item.player_id, 1),
        ("Senioren", ranked[1].item.player_id, 1),
    ]
    assert empty not in [c for c, _e in winners]
