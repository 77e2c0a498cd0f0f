"""Deleting a tournament without games, archiving one with games."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests import factories
from tournaments.models import Player, Tournament

pytestmark = pytest.mark.django_db


def test_a_tournament_without_games_is_deleted_after_the_confirmation(client, director):
    t, _series = factories.drawn(8, directors=[director])
    url = reverse("director:delete", args=[t.pk])
    assert "Delete the tournament" in client.get(url).content.decode()
    client.post(url, {})  # not confirmed: nothing happens
    assert Tournament.objects.filter(pk=t.pk).exists()
    assert client.post(url, {"confirm": "yes"}).status_code == 302
    assert not Tournament.objects.filter(pk=t.pk).exists()
    assert Player.objects.count() == 8, "the players stay known"


def test_a_tournament_with_games_is_archived_and_still_reachable(client, director):
    t, series = factories.drawn(4, directors=[director])
    factories.game(series.tables.get(), 1, passed_out=True)
    url = reverse("director:delete", args=[t.pk])
    assert "Archive the tournament" in client.get(url).content.decode()
    client.post(url, {"confirm": "yes"}, follow=True)  # the message read once
    t.refresh_from_db()
    assert t.archived
    assert t.name not in client.get(reverse("director:home")).content.decode()
    assert client.get(reverse("director:standings", args=[t.pk])).status_code == 200
