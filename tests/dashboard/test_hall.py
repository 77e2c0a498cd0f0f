"""The hall check before play: what a phone reports, how a table is classified, the hall map."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from dashboard import hall
from dashboard.models import HallCheck
from tests import factories
from tournaments.models import Series

pytestmark = pytest.mark.django_db

GOOD = {"sent": "20", "received": "20", "p50": "40", "p95": "90", "max": "120"}


def test_a_report_is_read_with_its_numbers():
    assert hall.parse_report(GOOD) == hall.Report(20, 20, 40, 90, 120)
    # Nothing answered: no times.
    nothing = {"sent": "20", "received": "0", "p50": "", "p95": "", "max": ""}
    assert hall.parse_report(nothing) == hall.Report(20, 0, None, None, None)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"sent": "4"}, "sent: a whole number from 5 to 60, not “4”."),
        ({"sent": "61"}, "sent: a whole number from 5 to 60, not “61”."),
        ({"sent": "+20"}, "sent: a whole number from 5 to 60, not “+20”."),
        ({"sent": "2_0"}, "sent: a whole number from 5 to 60, not “2_0”."),
        ({"sent": "²"}, "sent: a whole number from 5 to 60, not “²”."),
        ({"received": "21"}, "received: a whole number from 0 to 20, not “21”."),
        ({"received": "-1"}, "received: a whole number from 0 to 20, not “-1”."),
        ({"p95": "60001"}, "p95: a whole number from 0 to 60000, not “60001”."),
        ({"p95": "1e3"}, "p95: a whole number from 0 to 60000, not “1e3”."),
        ({"max": ""}, "max: required when a round trip was answered."),
        ({"p50": "100"}, "p50, p95, max: the median, the 95th percentile and the slowest in order (p50 ≤ p95 ≤ max)."),
        ({"received": "0"}, "p50, p95, max: leave them empty when no round trip was answered."),
    ],
)
def test_a_bad_report_is_refused_naming_the_field_and_the_rule(changes, message):
    with pytest.raises(hall.Refused) as refused:
        hall.parse_report(GOOD | changes)
    assert (refused.value.message, refused.value.status) == (message, 422)


def _check(**fields) -> HallCheck:
    values = {"sent": 20, "received": 20, "p50_ms": 40, "p95_ms": 90, "max_ms": 120} | fields
    return HallCheck(table_number=1, checked_at=timezone.now(), **values)


def test_a_table_is_good_slow_or_losing_round_trips():
    assert hall.classify(None) == hall.State.NOT_CHECKED
    assert hall.classify(_check()) == hall.State.GOOD
    # The threshold: p95 above 500 ms is slow, 500 itself is not.
    assert hall.classify(_check(p95_ms=500, max_ms=900)) == hall.State.GOOD
    assert hall.classify(_check(p95_ms=501, max_ms=900)) == hall.State.SLOW
    # One round trip lost counts before any slowness: a deal may not get through at all.
    assert hall.classify(_check(received=19, p95_ms=900, max_ms=900)) == hall.State.LOST
    assert hall.classify(_check(received=0, p50_ms=None, p95_ms=None, max_ms=None)) == hall.State.LOST
    assert {s.symbol for s in hall.State} == {"?", "✓", "◔", "✕"}  # never colour alone


def test_the_latest_check_is_kept_per_table_number_and_reports_are_throttled():
    table = factories.table_of(4)
    start = timezone.now()
    first = hall.record(table, hall.parse_report(GOOD), now=start)
    with pytest.raises(hall.Refused) as refused:
        hall.record(
            table, hall.parse_report(GOOD | {"p95": "700", "max": "800"}), now=start + datetime.timedelta(seconds=4)
        )
    assert refused.value.status == 429 and "wait 5 seconds" in refused.value.message
    later = start + datetime.timedelta(seconds=6)
    second = hall.record(table, hall.parse_report(GOOD | {"p95": "700", "max": "800"}), now=later)
    assert second.pk == first.pk and HallCheck.objects.count() == 1
    assert (second.p95_ms, second.checked_at) == (700, later)
    assert hall.verdict(second).startswith("Slow connection: 95 % of the answers took up to 700 ms")
    # Series 2's table 1 stands where series 1's did: the same check.
    series2 = Series.objects.create(tournament=table.series.tournament, number=2)
    assert hall.latest(series2.tables.create(number=1, size=4)) == second


def test_no_check_once_a_deal_is_entered_or_the_series_is_finished():
    table = factories.table_of(3)
    factories.game(table, 1, passed_out=True)
    with pytest.raises(hall.Refused) as refused:
        hall.record(table, hall.parse_report(GOOD))
    assert refused.value.status == 409 and "Play has started at this table" in refused.value.message
    other = factories.table_of(3)
    Series.objects.filter(pk=other.series_id).update(status=Series.Status.FINISHED)
    other.series.refresh_from_db()
    with pytest.raises(hall.Refused) as refused:
        hall.record(other, hall.parse_report(GOOD))
    assert refused.value.status == 410
    assert not HallCheck.objects.exists()


def test_a_check_cut_short_by_the_first_deal_is_kept_once_for_a_table_never_checked(client):
    """The first deal stops the phone's check; what it measured so far is kept all the same
    (once, for a table never checked): the dashboard shows it measured, not "not checked"."""
    table = factories.table_of(3)
    factories.game(table, 1, passed_out=True)
    cut = {"sent": "2", "received": "2", "p50": "40", "p95": "60", "max": "60", "cut": "1"}
    url = reverse("table:hall_check", args=[table.token])
    answer = client.post(url, cut)
    assert answer.status_code == 200, answer.content
    check = HallCheck.objects.get()
    assert (check.sent, check.received, hall.classify(check)) == (2, 2, hall.State.GOOD)
    # Kept once: a second cut-short report after play (another phone) changes nothing.
    HallCheck.objects.update(checked_at=timezone.now() - datetime.timedelta(minutes=1))
    again = client.post(url, cut | {"received": "0", "p50": "", "p95": "", "max": ""})
    assert again.status_code == 409 and "Play has started" in again.json()["error"]
    assert HallCheck.objects.get().received == 2
    # Fewer than 5 round trips only from a check cut short.
    with pytest.raises(hall.Refused, match="sent: a whole number from 5 to 60"):
        hall.parse_report(cut)


@pytest.fixture
def hall_series(director):
    """Six tables of a drawn series: 1 good, 2 slow, 3 losing round trips, 4-6 not checked."""
    t, series = factories.drawn(players=24, directors=[director])
    tables = {table.number: table for table in series.tables.all()}
    hall.record(tables[1], hall.parse_report(GOOD))
    hall.record(tables[2], hall.parse_report(GOOD | {"p95": "720", "max": "750"}))
    hall.record(tables[3], hall.parse_report(GOOD | {"received": "17"}))
    return t, series, tables


def test_the_dashboard_shows_the_hall_map_before_play(client, hall_series, django_assert_max_num_queries):
    t, _series, _tables = hall_series
    with django_assert_max_num_queries(13):
        page = client.get(reverse("director:detail", args=[t.pk])).content.decode()
    assert "Hall check" in page and 'hx-get="' + reverse("director:hall", args=[t.pk]) in page
    cells = page.split('<ol class="hall-map plain">')[1].split("</ol>")[0]
    assert cells.count('class="hall-cell') == 6
    assert '<li class="hall-cell slow"><strong><span class="visually-hidden">Table </span>2</strong>' in cells
    assert "p95 720 ms" in cells and "3/20 lost" in cells and cells.count("not-checked") == 3
    assert "Slow: table 2" in page and "Lost round trips: table 3" in page
    client.cookies["django_language"] = "de"
    page = client.get(reverse("director:detail", args=[t.pk])).content.decode()
    assert "Saalprüfung" in page and "Langsam: Tisch 2" in page and "3/20 verloren" in page


def test_the_hall_refreshes_in_a_fixed_number_of_queries(client, hall_series, django_assert_max_num_queries):
    t, _series, _tables = hall_series
    with django_assert_max_num_queries(8):
        page = client.get(reverse("director:hall", args=[t.pk])).content.decode()
    assert page.count('class="hall-cell') == 6


def test_once_play_is_on_the_dashboard_shows_only_the_counts(client, hall_series):
    t, _series, tables = hall_series
    factories.game(tables[4], 1, passed_out=True)
    page = client.get(reverse("director:detail", args=[t.pk])).content.decode()
    assert "Play has started: the tables check no more." in page
    assert "hall-map" not in page and reverse("director:hall", args=[t.pk]) not in page
    assert "Slow: table 2" in page
    # The partial says the same (it replaces the map when play starts while it is shown).
    partial = client.get(reverse("director:hall", args=[t.pk])).content.decode()
    assert "hall-map" not in partial and "Slow: table 2" in partial


def test_a_hall_never_checked_says_nothing_once_play_is_on(client, director):
    t, series = factories.drawn(players=8, directors=[director])
    page = client.get(reverse("director:detail", args=[t.pk])).content.decode()
    assert "Hall check" in page and "not checked: <strong>2</strong>" in page
    factories.game(series.tables.first(), 1, passed_out=True)
    assert "Hall check" not in client.get(reverse("director:detail", args=[t.pk])).content.decode()
