"""The table link's connection check before play: the page offers it, the office answers
its round trips cheaply and keeps its report, and none of it runs once a deal is entered."""

from __future__ import annotations

import pytest
from django.urls import reverse

from dashboard.models import HallCheck
from tests import factories
from tournaments.models import Series

pytestmark = pytest.mark.django_db

REPORT = {"sent": "20", "received": "20", "p50": "40", "p95": "90", "max": "120"}


def test_the_first_open_before_play_checks_by_itself(client, settings):
    settings.HALL_CHECK_PINGS, settings.HALL_CHECK_INTERVAL_MS = 6, 100
    table = factories.table_of(4)
    page = client.get(table.entry_url()).content.decode()
    assert 'id="hall-check"' in page and " data-auto\n" in page
    assert f'data-ping="{reverse("table:ping", args=[table.token])}"' in page
    assert 'data-pings="6" data-interval="100"' in page
    assert "Not checked yet." in page and "js/hall-check.js" in page
    # Once checked, a phone opening the link later (a player) does not check again by itself.
    client.post(reverse("table:hall_check", args=[table.token]), REPORT)
    page = client.get(table.entry_url()).content.decode()
    assert 'id="hall-check"' in page and " data-auto\n" not in page
    assert "Last check at" in page and ": good." in page


def test_the_second_lists_link_checks_the_same_table(client):
    table = factories.table_of(3)
    response = client.post(reverse("table:hall_check", args=[table.control_token]), REPORT)
    assert response.status_code == 200
    assert HallCheck.objects.get().table_number == table.number


def test_a_ping_is_one_query_and_answers_nothing_to_keep(client, django_assert_num_queries):
    table = factories.table_of(3)
    url = reverse("table:ping", args=[table.token])
    with django_assert_num_queries(1):
        response = client.get(url)
    assert response.status_code == 200 and response.content == b""
    assert "no-store" in response["Cache-Control"]
    assert client.post(url).status_code == 405
    assert client.get(reverse("table:ping", args=["guessed"])).status_code == 404


def test_the_report_answers_the_state_and_what_to_say(client):
    table = factories.table_of(4)
    url = reverse("table:hall_check", args=[table.token])
    response = client.post(url, REPORT | {"p95": "720", "max": "800"})
    assert response.status_code == 200
    assert response.json()["state"] == "slow"
    assert response.json()["text"].startswith("Slow connection: 95 % of the answers took up to 720 ms")
    # Sent again at once (a second phone of the table): refused, the first is kept.
    again = client.post(url, REPORT)
    assert again.status_code == 429 and "wait 5 seconds" in again.json()["error"]
    assert HallCheck.objects.get().p95_ms == 720
    bad = client.post(url, REPORT | {"received": "25"})
    assert bad.status_code == 422 and bad.json() == {"error": "received: a whole number from 0 to 20, not “25”."}
    assert client.get(url).status_code == 405


def test_in_german_the_refusal_is_german(client):
    table = factories.table_of(4)
    client.cookies["django_language"] = "de"
    bad = client.post(reverse("table:hall_check", args=[table.token]), REPORT | {"sent": "3"})
    assert bad.json()["error"] == "sent: eine ganze Zahl von 5 bis 60, nicht „3“."


def test_once_a_deal_is_entered_the_check_is_gone(client, django_assert_max_num_queries):
    table = factories.table_of(3)
    factories.game(table, 1, passed_out=True)
    # The page shows no check and spends no query on it.
    with django_assert_max_num_queries(30):
        page = client.get(table.entry_url()).content.decode()
    assert 'id="hall-check"' not in page
    assert client.get(reverse("table:ping", args=[table.token])).status_code == 409
    refused = client.post(reverse("table:hall_check", args=[table.token]), REPORT)
    assert refused.status_code == 409 and "Play has started at this table" in refused.json()["error"]
    assert not HallCheck.objects.exists()


def test_a_finished_series_is_not_checked(client):
    table = factories.table_of(3)
    Series.objects.filter(pk=table.series_id).update(status=Series.Status.FINISHED)
    assert 'id="hall-check"' not in client.get(table.entry_url()).content.decode()
    assert client.get(reverse("table:ping", args=[table.token])).status_code == 410
    assert client.post(reverse("table:hall_check", args=[table.token]), REPORT).status_code == 410
