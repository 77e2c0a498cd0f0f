"""Correcting a player from the players page: the change shows everywhere; a namesake
warns first; a category and a team are set here."""

from __future__ import annotations

import pytest
from django.urls import reverse

from draw.series import draw_series
from tests import factories
from tournaments import services
from tournaments.models import Category

pytestmark = pytest.mark.django_db


def test_a_corrected_name_shows_on_the_standings_and_the_start_list(client, director):
    t = factories.tournament(directors=[director])
    regs = [services.register(t, services.Entry(name=f"Player {i}")) for i in range(4)]
    draw_series(t)
    women = Category.objects.create(tournament=t, name="Damen")
    url = reverse("director:player_edit", args=[t.pk, regs[0].pk])
    assert client.get(url).status_code == 200
    data = {"name": "Anna  Müller", "club": "SC Altenburg", "membership_number": "007", "team": ""}
    data["category"] = women.pk
    assert client.post(url, data).status_code == 302
    regs[0].refresh_from_db()
    assert (regs[0].player.name, regs[0].player.club.name, regs[0].category) == ("Anna Müller", "SC Altenburg", women)
    assert regs[0].player.sort_key == "mueller anna"
    assert "Anna Müller" in client.get(reverse("director:standings", args=[t.pk])).content.decode()


def test_renaming_to_a_registered_player_of_the_club_warns_first(client, director):
    t = factories.tournament(directors=[director])
    services.register(t, services.Entry(name="Anna Schäfer", club="SC Altenburg"))
    other = services.register(t, services.Entry(name="Anne Schäfer", club="SC Altenburg"))
    url = reverse("director:player_edit", args=[t.pk, other.pk])
    data = {"name": "Anna Schäfer", "club": "SC Altenburg", "membership_number": "", "team": ""}
    response = client.post(url, data)
    assert response.status_code == 422
    assert "Anna Schäfer of this club is already registered" in response.content.decode()
    other.refresh_from_db()
    assert other.player.name == "Anne Schäfer"
    assert client.post(url, data | {"namesake_ok": "on"}).status_code == 302


def test_registering_a_namesake_by_hand_needs_the_tick(client, director):
    t = factories.tournament(directors=[director])
    url = reverse("director:players", args=[t.pk])
    data = {"name": "Anna Schäfer", "club": "SC Altenburg", "first_series": 1}
    assert client.post(url, data).status_code == 302
    assert client.post(url, data).status_code == 422
    assert client.post(url, data | {"namesake_ok": "on"}).status_code == 302
    assert t.registrations.count() == 2


def test_a_category_is_added_once(client, director):
    t = factories.tournament(directors=[director])
    url = reverse("director:category_add", args=[t.pk])
    assert client.post(url, {"name": "Damen"}).status_code == 302
    response = client.post(url, {"name": "damen"})
    assert response.status_code == 422 and "This tournament has this category already." in response.content.decode()
    assert t.categories.count() == 1
