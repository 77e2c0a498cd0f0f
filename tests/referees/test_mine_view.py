"""referees:mine and the front page: a referee finds the tournaments he referees."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests import factories

from .helpers import referee_of

pytestmark = pytest.mark.django_db


def test_a_referee_sees_his_tournaments_only(client):
    mine, other = factories.tournament(name="Pub Cup"), factories.tournament(name="Other Open")
    referee = referee_of(mine)
    referee_of(other)
    client.force_login(referee)
    page = client.get(reverse("referees:mine")).content.decode()
    assert "Pub Cup" in page and "Other Open" not in page
    home = client.get(reverse("director:home")).content.decode()
    assert "Tournaments you referee" in home and reverse("referees:board", args=[mine.pk]) in home


def test_login_is_required(client):
    response = client.get(reverse("referees:mine"))
    assert response.status_code == 302 and "/accounts/login/" in response.url
