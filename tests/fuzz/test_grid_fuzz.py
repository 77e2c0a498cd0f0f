"""Random and malformed posts to the office grid: typed lines, deal numbers, the start row.

Never a 500; a refused list saves nothing.
"""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st

from scoring.models import ControlEntry, Game
from tests import factories

from .strategies import FUZZ, junk, value

pytestmark = pytest.mark.django_db

LINES = st.one_of(junk, st.text(alphabet="0123456789+-/ khpxgncsdzolvbr", max_size=16))


@pytest.fixture
def world():
    table = factories.table_of(4, rounds_per_series=1)
    director = factories.user()
    table.series.tournament.directors.add(director)
    client = Client()
    client.force_login(director)
    return table, client


def urls(table):
    args = [table.series.tournament_id, table.series.number, table.number]
    return reverse("director:grid", args=args), reverse("director:grid_preview", args=args)


@FUZZ
@given(lines=st.dictionaries(st.integers(0, 6), value(LINES), max_size=4), start=junk, kind=junk, deal=junk)
def test_any_post_to_the_grid_is_answered_without_a_500(world, lines, start, kind, deal):
    table, client = world
    grid, preview = urls(table)
    data = {f"line-{n}": text for n, text in lines.items()} | {"start": start, "list": kind, "deal": deal}
    before = (Game.objects.count(), ControlEntry.objects.count())
    answer = client.post(grid, data)
    assert answer.status_code in (302, 422), answer.status_code
    if answer.status_code == 422:
        assert (Game.objects.count(), ControlEntry.objects.count()) == before
    assert client.post(preview, data).status_code in (200, 400)
    Game.objects.all().delete()
    ControlEntry.objects.all().delete()
