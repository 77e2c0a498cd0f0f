"""core.addresses: the table cards, the QR codes and the series page speak of the
hall address (settings.OFFICE_URL), not of the address the director's browser used."""

from __future__ import annotations

import io

import pytest
import segno
from django.test import RequestFactory
from django.urls import reverse
from pypdf import PdfReader

from core import addresses
from printing.documents import cards
from tests import factories

HALL = "http://192.168.1.20:8000"


@pytest.mark.parametrize(
    ("host", "loopback"),
    [
        ("127.0.0.1", True),
        ("127.0.0.2", True),
        ("localhost", True),
        ("[::1]", True),
        ("192.168.1.20", False),
        ("skat.example.org", False),
        ("", False),
        (None, False),
    ],
)
def test_loopback_hosts(host, loopback):
    assert addresses.is_loopback(host) is loopback


def test_links_are_built_on_the_office_url_else_on_the_request(settings):
    request = RequestFactory().get("/", HTTP_HOST="127.0.0.1:8000")
    settings.OFFICE_URL = HALL
    assert addresses.absolute_link(request, "/s/abc/") == HALL + "/s/abc/"
    assert addresses.loopback_office(request) == ""
    settings.OFFICE_URL = ""  # a league server behind HTTPS: its own name
    assert addresses.absolute_link(request, "/s/abc/") == "http://127.0.0.1:8000/s/abc/"
    assert addresses.loopback_office(request) == "http://127.0.0.1:8000/"
    settings.OFFICE_URL = "http://127.0.0.1:8000"
    assert addresses.loopback_office(RequestFactory().get("/", HTTP_HOST="192.168.1.20")) == "http://127.0.0.1:8000/"


@pytest.mark.django_db
def test_the_qr_code_holds_the_hall_address_whatever_address_the_browser_used(client, settings):
    settings.OFFICE_URL = HALL
    table = factories.table_of(4)
    svg = client.get(reverse("table:qr", args=[table.token]), HTTP_HOST="127.0.0.1").content.decode()
    assert svg == segno.make(f"{HALL}/s/{table.token}/", error="m").svg_inline(scale=6, border=2)


@pytest.mark.django_db
def test_the_table_cards_print_and_encode_the_hall_address(client, director, settings, monkeypatch):
    settings.OFFICE_URL = HALL
    t, series = factories.drawn(players=8, directors=[director])
    encoded = []
    drawn = cards.draw_qr
    monkeypatch.setattr(cards, "draw_qr", lambda canvas, url, *a: encoded.append(url) or drawn(canvas, url, *a))
    response = client.get(reverse("director:series_cards_pdf", args=[t.pk, series.number]))
    pages = PdfReader(io.BytesIO(response.content)).pages
    text = "".join(page.extract_text() for page in pages).replace("\n", "")  # a long link takes two lines
    tables = list(series.tables.order_by("number"))
    links = [f"{HALL}/s/{table.token}/" for table in tables]
    assert encoded == [
        link for table in tables for link in (f"{HALL}/s/{table.token}/", f"{HALL}/s/{table.control_token}/")
    ]
    assert all(link in text for link in links)
    assert "testserver" not in text and "127.0.0.1" not in text


@pytest.mark.django_db
def test_the_series_page_warns_before_printing_cards_on_a_loopback_address(client, director, settings):
    t, series = factories.drawn(players=8, directors=[director])
    url = reverse("director:series", args=[t.pk, series.number])
    settings.OFFICE_URL = "http://127.0.0.1:8000"
    page = client.get(url).content.decode()
    assert 'class="card error loopback-warning" role="alert"' in page
    assert "The table cards would carry http://127.0.0.1:8000/" in page
    assert 'data-confirm="The table cards would carry' in page  # static/js/office.js asks (no inline script)
    assert "unless started with --bind 127.0.0.1; its start names the address phones open." in page
    settings.OFFICE_URL = HALL
    page = client.get(url).content.decode()
    assert "loopback-warning" not in page and 'data-confirm="The table cards' not in page
