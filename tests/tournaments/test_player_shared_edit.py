"""A person shared by two tournaments: his name, club and membership number show in both,
so a director changes them only if he runs every tournament and league the person plays
in (or is an office administrator), and every such change is recorded. Team and category
belong to the registration and stay the director's own."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests import factories
from tournaments.models import Category, PlayerChange, Registration

pytestmark = pytest.mark.django_db


def _shared(director_a, director_b):
    """Anna plays in tournament A (directed by ``director_a``) and B (``director_b``)."""
    a = factories.tournament(directors=[director_a], name="Open A", standings_public=True)
    b = factories.tournament(directors=[director_b], name="Open B")
    anna = factories.player("Anna Bell", club="SC Altenburg", membership_number="4711")
    return (
        a,
        b,
        Registration.objects.create(tournament=a, player=anna),
        Registration.objects.create(tournament=b, player=anna),
    )


def _data(**changes) -> dict:
    return {"name": "Anna Bell", "club": "SC Altenburg", "membership_number": "4711", "team": ""} | changes


def test_the_director_of_one_tournament_cannot_rename_a_person_of_another(client):
    director_a, director_b = factories.user("dir_a"), factories.user("dir_b")
    a, b, _reg_a, reg_b = _shared(director_a, director_b)
    client.force_login(director_b)
    response = client.post(reverse("director:player_edit", args=[b.pk, reg_b.pk]), _data(name="Renamed By DirB"))
    assert response.status_code == 422
    page = response.content.decode()
    assert "Anna Bell also plays in Open A, which you do not run" in page
    reg_b.player.refresh_from_db()
    assert reg_b.player.name == "Anna Bell"
    assert not PlayerChange.objects.exists()
    assert "Renamed By DirB" not in client.get(reverse("director:standings", args=[a.pk])).content.decode()


@pytest.mark.parametrize("change", [{"club": "Kreuz Bube Kiel"}, {"membership_number": "999"}, {"club": ""}], ids=str)
def test_nor_his_club_or_membership_number(client, change):
    director_a, director_b = factories.user("dir_a"), factories.user("dir_b")
    _a, b, _reg_a, reg_b = _shared(director_a, director_b)
    client.force_login(director_b)
    assert client.post(reverse("director:player_edit", args=[b.pk, reg_b.pk]), _data(**change)).status_code == 422
    reg_b.player.refresh_from_db()
    assert (reg_b.player.club.name, reg_b.player.membership_number) == ("SC Altenburg", "4711")


def test_team_and_category_stay_his_own_to_set(client):
    director_a, director_b = factories.user("dir_a"), factories.user("dir_b")
    _a, b, reg_a, reg_b = _shared(director_a, director_b)
    women = Category.objects.create(tournament=b, name="Damen")
    client.force_login(director_b)
    url = reverse("director:player_edit", args=[b.pk, reg_b.pk])
    assert client.post(url, _data(team="Kreuz Bube", category=women.pk)).status_code == 302
    reg_b.refresh_from_db()
    reg_a.refresh_from_db()
    assert (reg_b.team.name, reg_b.category) == ("Kreuz Bube", women)
    assert (reg_a.team, reg_a.category) == (None, None)


def test_who_directs_both_renames_him_everywhere_and_the_change_is_recorded(client):
    director = factories.user("dir")
    a, b, reg_a, reg_b = _shared(director, director)
    client.force_login(director)
    url = reverse("director:player_edit", args=[b.pk, reg_b.pk])
    assert client.post(url, _data(name="Anna Bell-Berg")).status_code == 302
    change = PlayerChange.objects.get()
    assert (change.player, change.user, change.tournament) == (reg_b.player, director, b)
    assert change.before == {"name": "Anna Bell", "club": "SC Altenburg", "membership_number": "4711"}
    assert change.after["name"] == "Anna Bell-Berg"
    assert "Anna Bell-Berg" in client.get(reverse("director:standings", args=[a.pk])).content.decode()
    # The record shows under the form, in both tournaments.
    page = client.get(reverse("director:player_edit", args=[a.pk, reg_a.pk])).content.decode()
    assert "Changes of this player" in page and "Anna Bell-Berg" in page and "dir" in page


def test_an_office_administrator_renames_a_shared_person_and_is_recorded(client):
    director_a, director_b = factories.user("dir_a"), factories.user("dir_b")
    root = factories.user("root", superuser=True)
    _a, b, _reg_a, reg_b = _shared(director_a, director_b)
    client.force_login(root)
    url = reverse("director:player_edit", args=[b.pk, reg_b.pk])
    assert client.post(url, _data(name="Anna Bell-Berg")).status_code == 302
    assert PlayerChange.objects.get().user == root


def test_saving_without_a_change_records_nothing(client):
    director = factories.user("dir")
    _a, b, _reg_a, reg_b = _shared(director, director)
    client.force_login(director)
    assert client.post(reverse("director:player_edit", args=[b.pk, reg_b.pk]), _data()).status_code == 302
    assert not PlayerChange.objects.exists()


def test_a_league_roster_he_is_on_counts_too(client):
    """A league's roster shows his name and club: its managers run him there."""
    director = factories.user("dir")
    _league, _group, teams = factories.league_group(teams=2, roster=4)
    a1 = teams[0].roster.get(position=1).player
    t = factories.tournament(directors=[director], name="Open A")
    reg = Registration.objects.create(tournament=t, player=a1)
    client.force_login(director)
    url = reverse("director:player_edit", args=[t.pk, reg.pk])
    response = client.post(url, {"name": "A1 Neu", "club": "Club A", "membership_number": "", "team": ""})
    assert response.status_code == 422
    assert "which you do not run" in response.content.decode()
    _league.managers.add(director)
    response = client.post(url, {"name": "A1 Neu", "club": "Club A", "membership_number": "", "team": ""})
    assert response.status_code == 302


def test_many_places_are_named_up_to_three_and_counted(client):
    director = factories.user("dir")
    t = factories.tournament(directors=[director], name="Mine")
    anna = factories.player("Anna Bell")
    reg = Registration.objects.create(tournament=t, player=anna)
    for n in range(5):
        Registration.objects.create(tournament=factories.tournament(name=f"Cup {n}"), player=anna)
    client.force_login(director)
    response = client.post(reverse("director:player_edit", args=[t.pk, reg.pk]), {"name": "Anna B", "team": ""})
    assert "Cup 0, Cup 1, Cup 2 and 2 more" in response.content.decode()


def test_the_admin_records_a_change_of_a_person(admin_client):
    anna = factories.player("Anna Bell")
    url = reverse("admin:tournaments_player_change", args=[anna.pk])
    data = {"name": "Anna Bell-Berg", "club": "", "membership_number": "", "nationality": ""}
    response = admin_client.post(url, data)
    assert response.status_code == 302
    change = PlayerChange.objects.get()
    assert (change.before["name"], change.after["name"], change.tournament) == ("Anna Bell", "Anna Bell-Berg", None)
