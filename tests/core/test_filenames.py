"""File names of downloads (core/filenames.py): umlauts spelled out, words in the page's language."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse
from django.utils import translation

from core.filenames import Name, file_name
from tests import factories


def test_umlauts_are_spelled_out_not_dropped():
    assert file_name(Name("Großes Öffentliches Preisskat Müllrose"), suffix=".pdf") == (
        "grosses-oeffentliches-preisskat-muellrose.pdf"
    )


def test_the_words_follow_the_language_names_do_not():
    parts = (Name("Table Series Open"), "series", 1, "sheets", "filled")
    assert file_name(*parts, suffix=".pdf") == "table-series-open-series-1-sheets-filled.pdf"
    with translation.override("de"):
        assert file_name(*parts, suffix=".pdf") == "table-series-open-serie-1-spiellisten-ausgefuellt.pdf"


def test_a_name_of_symbols_only_falls_back_to_a_word():
    assert file_name(Name("★★★"), "standings", suffix=".pdf") == "tournament-standings.pdf"
    with translation.override("de"):
        assert file_name(Name("★★★"), "standings", suffix=".pdf") == "turnier-rangliste.pdf"


@pytest.mark.django_db
def test_an_export_is_named_in_the_pages_language(client, director):
    t = factories.tournament(name="Großer Preis von Köln", date=datetime.date(2026, 11, 27), directors=[director])
    answer = client.get(reverse("director:export_csv", args=[t.pk, "ranking"]), HTTP_ACCEPT_LANGUAGE="de")
    assert answer["Content-Disposition"] == 'attachment; filename="grosser-preis-von-koeln-2026-11-27-rangliste.csv"'
    answer = client.get(reverse("director:standings_pdf", args=[t.pk]), HTTP_ACCEPT_LANGUAGE="en")
    assert answer["Content-Disposition"] == 'inline; filename="grosser-preis-von-koeln-standings.pdf"'
