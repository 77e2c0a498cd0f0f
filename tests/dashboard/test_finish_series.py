"""Only confirmed sheets are final: finishing a series whose sheets are not all
confirmed, or whose second list differs, asks the director with the list of those tables."""

from __future__ import annotations

import pytest
from django.urls import reverse

from dashboard.progress import FinishNeedsConfirmation, finish_series
from signoff.confirm import mark_on_paper
from tests import factories
from tests.referees.helpers import DEALS, director_of
from tournaments.models import Seat, Series, Table

pytestmark = pytest.mark.django_db


def _series_of_three_tables():
    """Series 1 with tables 1-3 of three, one round: table 1 complete and confirmed,
    table 2 complete, table 3 complete with a differing second list."""
    t = factories.tournament(rounds_per_series=1)
    series = Series.objects.create(tournament=t, number=1, status=Series.Status.RUNNING)
    for number in (1, 2, 3):
        table = Table.objects.create(series=series, number=number, size=3)
        for seat in (1, 2, 3):
            Seat.objects.create(table=table, series=series, number=seat, player=factories.player())
        for deal, fields in enumerate(DEALS, start=1):
            factories.game(table, deal, **fields)
    mark_on_paper(series.tables.get(number=1), by="referee")
    factories.control_entry(series.tables.get(number=3), 1, passed_out=True)
    return series


def test_unconfirmed_sheets_and_differing_lists_need_the_directors_word():
    series = _series_of_three_tables()
    with pytest.raises(FinishNeedsConfirmation) as refused:
        finish_series(series)
    assert (refused.value.open_tables, refused.value.unconfirmed, refused.value.lists_differ) == ([], [2, 3], [3])
    series.refresh_from_db()
    assert series.status == Series.Status.RUNNING
    finish_series(series, force=True)
    series.refresh_from_db()
    assert series.status == Series.Status.FINISHED


def test_a_series_of_confirmed_sheets_finishes_in_one_step():
    series = _series_of_three_tables()
    series.tables.exclude(number=1).delete()
    finish_series(series)
    series.refresh_from_db()
    assert series.status == Series.Status.FINISHED


def test_the_series_page_lists_the_tables_and_the_refusal_names_them(client):
    series = _series_of_three_tables()
    t = series.tournament
    client.force_login(director_of(t))
    page = client.get(reverse("director:series", args=[t.pk, 1])).content.decode()
    assert "sheets not confirmed: tables 2, 3" in page and "second list differs: tables 3" in page
    assert "finish anyway" in page
    response = client.post(reverse("director:finish", args=[t.pk, 1]), follow=True)
    page = response.content.decode()
    assert "Series 1 is not finished: sheets not confirmed at tables 2, 3; the second list differs" in page
    assert "Only confirmed sheets are final (5.5.3)" in page
    series.refresh_from_db()
    assert series.status == Series.Status.RUNNING
    client.post(reverse("director:finish", args=[t.pk, 1]), {"force": "1"})
    series.refresh_from_db()
    assert series.status == Series.Status.FINISHED


def test_a_finished_series_is_announced_after_the_commit(django_capture_on_commit_callbacks):
    """core.backups makes a backup then, through dashboard.signals."""
    from dashboard.signals import series_finished

    series = _series_of_three_tables()
    heard = []

    def listener(sender, series, **kwargs):
        heard.append(series.pk)

    series_finished.connect(listener)
    try:
        with django_capture_on_commit_callbacks(execute=False) as callbacks:
            finish_series(series, force=True)
        assert heard == []  # not before the series is committed
        for callback in callbacks:
            callback()
    finally:
        series_finished.disconnect(listener)
    assert heard == [series.pk]


def test_the_dashboard_offers_to_finish_a_series_whose_sheets_are_all_confirmed(client):
    """Not "Series 1 · running" without a button once every sheet is confirmed."""
    series = _series_of_three_tables()
    t = series.tournament
    client.force_login(director_of(t))
    finish = reverse("director:finish", args=[t.pk, 1])
    page = client.get(reverse("director:detail", args=[t.pk])).content.decode()
    assert "Series 1 · running" in page and finish not in page
    series.tables.exclude(number=1).delete()
    page = client.get(reverse("director:detail", args=[t.pk])).content.decode()
    assert "Series 1 · ready to finish" in page and "Every sheet of series 1 is confirmed" in page
    assert f'action="{finish}"' in page
    client.post(finish)
    series.refresh_from_db()
    assert series.status == Series.Status.FINISHED
