"""The entry's floor in the bench (perf.bench.bare_entry): the same deal saved under the
table's lock, 204; mounted only by the bench's own URLconf, never in the served office."""

from __future__ import annotations

import random

import pytest
from django.test.utils import override_settings
from django.urls import NoReverseMatch, reverse

from rehearsal.deals import entry_data, random_game
from scoring.models import Game
from tests import factories

pytestmark = pytest.mark.django_db


def test_the_served_office_has_no_bare_entry(client):
    table = factories.table_of(3)
    with pytest.raises(NoReverseMatch):
        reverse("bench_floor", args=[table.token])
    data = entry_data(random_game(random.Random(1), 1, 3))
    assert client.post(f"/s/bench-floor/{table.token}/", data).status_code == 404
    assert not Game.objects.filter(table=table).exists()


@override_settings(ROOT_URLCONF="perf.bench")
def test_the_bench_s_bare_entry_stores_the_deal_as_the_engine_values_it(client):
    table = factories.table_of(3)
    deal = random_game(random.Random(2), 1, 3)
    response = client.post(reverse("bench_floor", args=[table.token]), entry_data(deal), HTTP_HX_REQUEST="true")
    assert response.status_code == 204 and response.content == b""
    stored = Game.objects.get(table=table, number=1)
    # The same deal: what was entered, and the engine's value and score of it.
    assert all(getattr(stored, name) == getattr(deal, name) for name in Game.ENTERED_FIELDS)
    assert (stored.value, stored.score) == (deal.value, deal.score)
    # The office's own pages stay where they are under the bench's URLconf.
    assert client.get(reverse("table:sheet", args=[table.token])).status_code == 200
