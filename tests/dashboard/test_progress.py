"""dashboard.progress: a second-list difference a referee settled is no longer flagged
on the tiles, the series page or the finish check; the sheet still awaits signing."""

from __future__ import annotations

import pytest
from django.urls import reverse

from dashboard.progress import _sheets_now, finish_check, table_progress
from signoff.confirm import accept_sheet, fingerprint
from tests import factories
from tests.referees.helpers import director_of, full_table

pytestmark = pytest.mark.django_db


def _differing_table():
    table = full_table(3)
    factories.control_entry(table, 2, declarer_seat=3, contract="hearts", tops=2, declarer_points=70)
    return table


def test_a_difference_is_flagged_until_a_referee_decides():
    table = _differing_table()
    [row] = table_progress(table.series)
    assert row.lists_differ == [2]
    accept_sheet(table, by="ref", reason="Seat 1's list is right")
    [row] = table_progress(table.series)
    assert row.lists_differ == []
    # Settled, not signed: the sheet still awaits the players' confirmation.
    assert row.awaiting and not row.confirmed
    check = finish_check([row])
    assert check.lists_differ == [] and check.unconfirmed == [table.number]


def test_a_decision_on_an_older_sheet_settles_nothing():
    table = _differing_table()
    accept_sheet(table, by="ref", reason="Seat 1's list is right")
    game = table.games.get(number=3)
    game.version += 1
    game.save(update_fields=["version"])
    [row] = table_progress(table.series)
    assert row.lists_differ == [2]


def test_the_fingerprints_in_bulk_are_the_sign_offs():
    tables = [_differing_table(), full_table(4)]
    assert _sheets_now([t.pk for t in tables])[0] == {t.pk: fingerprint(t) for t in tables}


def test_the_tile_and_the_table_page_drop_the_flag(client):
    table = _differing_table()
    tournament = table.series.tournament
    client.force_login(director_of(tournament))
    dashboard = reverse("director:detail", args=[tournament.pk])
    page = reverse("director:table", args=[tournament.pk, table.series.number, table.number])
    assert "second list differs at 1 deal" in client.get(dashboard).content.decode()
    assert "The second list differs from the sheet at deal 2." in client.get(page).content.decode()
    accept_sheet(table, by="ref", reason="Seat 1's list is right")
    assert "second list differs at" not in client.get(dashboard).content.decode()
    assert "The second list differs" not in client.get(page).content.decode()
    assert "awaiting confirmation" in client.get(dashboard).content.decode()
