"""The front page's league panel (leagues/panels.py)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests import factories

pytestmark = pytest.mark.django_db


def test_the_front_page_lists_managed_and_published_leagues(client):
    manager = factories.user("staffelleiter")
    mine, _g, _t = factories.league_group(teams=2, managers=[manager], name="Bezirksliga")
    factories.league_group(teams=2, name="Landesliga", published=True)
    factories.league_group(teams=2, name="Geheimliga")
    client.force_login(factories.user("someone"))
    page = client.get(reverse("director:home")).content.decode()
    assert "Landesliga" in page and "Bezirksliga" not in page and "Geheimliga" not in page
    client.force_login(manager)
    page = client.get(reverse("director:home")).content.decode()
    assert "Leagues you manage" in page and reverse("leagues:league", args=[mine.pk]) in page
    assert "Landesliga" in page and "Geheimliga" not in page


def test_anonymous_visitors_see_the_published_season_tables(client, django_assert_max_num_queries):
    published, _g, _t = factories.league_group(teams=2, name="Landesliga", published=True)
    factories.league_group(teams=2, name="Geheimliga")
    with django_assert_max_num_queries(6):
        page = client.get(reverse("director:home")).content.decode()
    assert "League tables" in page and reverse("public:season", args=[published.pk]) in page
    assert "Staffel 1" in page and "Geheimliga" not in page and "Leagues you manage" not in page
    assert reverse("leagues:league_new") not in page


def test_no_league_panel_without_a_published_league(client):
    factories.league_group(teams=2, name="Geheimliga")
    assert "league-panel" not in client.get(reverse("director:home")).content.decode()


def test_an_official_may_set_up_a_league_from_the_front_page(client):
    from django.contrib.auth.models import Permission

    official = factories.user("official")
    official.user_permissions.add(Permission.objects.get(codename="add_league"))
    client.force_login(official)
    page = client.get(reverse("director:home")).content.decode()
    assert reverse("leagues:league_new") in page and "No league yet." in page
