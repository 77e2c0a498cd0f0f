"""dashboard.views: the draw form and the series page say how a seeded draw seats the
players (by standings place in blocks of a table), in English and German."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests import factories
from tests.referees.helpers import director_of
from tournaments.models import Series

pytestmark = pytest.mark.django_db


def test_the_draw_form_explains_the_seeded_draw_once_a_series_is_played(client):
    t, series = factories.drawn(8)
    client.force_login(director_of(t))
    url = reverse("director:detail", args=[t.pk])
    assert "How a seeded draw seats the players" not in client.get(url).content.decode()  # series 1: at random only
    factories.play_series(series)
    page = client.get(url).content.decode()
    assert "How a seeded draw seats the players" in page
    assert "places 1 to 4 sit at table 1, places 5 to 8 at table 2" in page
    german = client.get(url, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "die Plätze 1 bis 4 sitzen an Tisch 1" in german and "höchstens zwei Nummern entfernten Tisch" in german


def test_a_seeded_series_page_says_why_the_leaders_sit_together(client):
    t, series = factories.drawn(8)
    client.force_login(director_of(t))
    url = reverse("director:series", args=[t.pk, series.number])
    assert "How a seeded draw seats the players" not in client.get(url).content.decode()
    Series.objects.filter(pk=series.pk).update(method=Series.Method.SEEDED)
    assert "number 1 and number 2 meet" in client.get(url).content.decode()
