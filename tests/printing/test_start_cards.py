"""Start cards (/t/<id>/start-cards.pdf): one per player, by start number, each with his
own page's private link as a QR code and the lookup address for a phone without a camera;
for the tournament's directors only; a fixed number of queries whatever the field."""

from __future__ import annotations

import io
import shutil
import subprocess

import pytest
from django.urls import reverse
from pypdf import PdfReader

from printing.documents import startcards
from tests import factories
from tournaments.models import Registration
from tournaments.player_links import player_path

pytestmark = pytest.mark.django_db


def test_each_player_gets_a_card_with_his_own_link(client, monkeypatch, settings, django_assert_max_num_queries):
    settings.OFFICE_URL = "http://192.168.1.20:8000"
    director = factories.user()
    t = factories.tournament(directors=[director], name="Herbstpreis")
    players = factories.registered(t, 12, clubs=2)
    for number, reg in enumerate(players, start=1):
        Registration.objects.filter(pk=reg.pk).update(start_number=number)
    drawn: list[str] = []
    real = startcards.draw_qr
    monkeypatch.setattr(startcards, "draw_qr", lambda canvas, url, *a: (drawn.append(url), real(canvas, url, *a)))
    client.force_login(director)
    url = reverse("director:start_cards_pdf", args=[t.pk])
    with django_assert_max_num_queries(8):
        response = client.get(url)
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    pages = [page.extract_text() for page in PdfReader(io.BytesIO(response.content)).pages]
    assert len(pages) == 2  # ten cards to a page
    assert players[0].player.name in pages[0] and players[11].player.name in pages[1]
    assert f"http://192.168.1.20:8000/me/find/{t.pk}/" in "".join(pages).replace("\n", "")
    assert drawn == [f"http://192.168.1.20:8000{player_path(reg)}" for reg in players]


def test_only_the_director_prints_them(client):
    t = factories.tournament()
    factories.registered(t, 2)
    client.force_login(factories.user())
    assert client.get(reverse("director:start_cards_pdf", args=[t.pk])).status_code in (403, 404)


def test_every_cards_code_reads_back_as_his_link_at_the_printed_size(client, settings, tmp_path):
    """The codes carry a fixed mask (printing.documents.qr): a phone reads each one.
    Decoded by zxing-cpp from the first page rendered at 100 dpi, about six pixels a
    module, coarser than a phone's camera sees a card held at arm's length."""
    zxingcpp = pytest.importorskip("zxingcpp", reason="zxing-cpp (a dev dependency) decodes the printed codes")
    from PIL import Image

    if shutil.which("pdftoppm") is None:
        pytest.skip("Debian's poppler-utils render the PDF (make test installs them)")
    settings.OFFICE_URL = "http://192.168.1.20:8000"
    director = factories.user()
    t = factories.tournament(directors=[director], name="Herbstpreis")
    players = factories.registered(t, 10)
    for number, reg in enumerate(players, start=1):
        Registration.objects.filter(pk=reg.pk).update(start_number=number)
    client.force_login(director)
    pdf = tmp_path / "cards.pdf"
    pdf.write_bytes(client.get(reverse("director:start_cards_pdf", args=[t.pk])).content)
    subprocess.run(["pdftoppm", "-r", "100", "-png", "-l", "1", str(pdf), str(tmp_path / "page")], check=True)
    (page,) = tmp_path.glob("page*.png")
    read = zxingcpp.read_barcodes(Image.open(page), formats=zxingcpp.BarcodeFormat.QRCode)
    links = sorted(f"http://192.168.1.20:8000{player_path(reg)}" for reg in players)
    assert sorted(code.text for code in read) == links
