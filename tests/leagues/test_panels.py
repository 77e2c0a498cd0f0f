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
    page = client.get(reverse("tournaments:home")).content.decode()
    assert "Landesliga" in page and "Bezirksliga" not in page and "Geheimliga" not in page
    client.force_login(manager)
    page = client.get(reverse("tournaments:home")).content.decode()
    assert "Leagues you manage" in page and reverse("leagues:league", args=[mine.pk]) in page
    assert "Landesliga" in page and "Geheimliga" not in page
