"""German: the catalogue is complete and the pages speak it."""

from __future__ import annotations

from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.core.management import call_command
from django.urls import reverse

from tests import factories

CATALOGUE = Path(settings.BASE_DIR) / "locale" / "de" / "LC_MESSAGES" / "django.po"


def test_every_message_has_a_german_translation():
    catalogue = polib.pofile(str(CATALOGUE))
    assert len(catalogue) > 200
    # A plural entry (ngettext) has its translations in msgstr_plural, one per form.
    untranslated = [
        e.msgid
        for e in catalogue
        if not e.obsolete and not (e.msgstr_plural and all(e.msgstr_plural.values()) if e.msgid_plural else e.msgstr)
    ]
    fuzzy = [e.msgid for e in catalogue.fuzzy_entries()]
    assert untranslated == [] and fuzzy == []


def test_placeholders_survive_translation():
    import re

    for entry in polib.pofile(str(CATALOGUE)):
        translations = list(entry.msgstr_plural.values()) if entry.msgid_plural else [entry.msgstr]
        for pattern in (r"%\((\w+)\)s", r"\{(\w+)\}"):  # Django's and the rules engine's templates
            names = sorted(re.findall(pattern, entry.msgid))
            for translation in translations:
                assert sorted(re.findall(pattern, translation)) == names, entry.msgid


@pytest.mark.django_db
def test_the_table_page_in_german(client):
    call_command("compiletranslations")
    table = factories.table_of(4)
    page = client.get(reverse("tables:sheet", args=[table.token]), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    words = ("Spiel 1", "Alleinspieler", "Eingepasst", "Spitzen", "Spiel eintragen", "Seat1 gibt", "setzt aus")
    # The phone's own texts, for the deals waiting on it (static/js/entry.js).
    for word in (*words, "wartet auf das Senden · wird beim Senden bewertet", "Spiel %(number)s"):
        assert word in page
    assert "Enter deal" not in page


@pytest.mark.django_db
def test_the_language_switch_sets_german(client):
    call_command("compiletranslations")
    response = client.post(reverse("set_language"), {"language": "de", "next": "/"})
    assert response.status_code == 302
    assert "Skat-Turnierbüro" in client.get("/").content.decode()


@pytest.mark.django_db
def test_rule_messages_from_the_engine_are_german_too(client):
    call_command("compiletranslations")
    table = factories.table_of(3)
    data = {
        "number": 1,
        "declarer_seat": 1,
        "contract": "grand",
        "tops": 5,
        "tops_kind": "with",
        "declarer_points": 70,
    }
    page = client.post(reverse("tables:sheet", args=[table.token]), data, HTTP_ACCEPT_LANGUAGE="de")
    assert "2.4.3: ein Grand hat höchstens 4 Spitzen, nicht 5" in page.content.decode()
    data = {"number": 1, "declarer_seat": 1, "contract": "null", "ouvert": "on", "declarer_tricks": 0, "bid": 50}
    page = client.post(reverse("tables:sheet", args=[table.token]), data, HTTP_ACCEPT_LANGUAGE="de")
    assert "3.4.4: Null ouvert ist 46 wert und erreicht den Reizwert 50 nicht" in page.content.decode()


def test_a_translation_with_broken_placeholders_falls_back_to_english(monkeypatch):
    from scoring.rules import RuleError
    from tournaments import rule_messages as messages

    monkeypatch.setattr(messages, "gettext", lambda text: "kaputt {nope}" if "{" in text else text)
    error = RuleError("tops", "a {kind} has at most {most} tops, not {tops}", "2.4.3", kind="grand", most=4, tops=5)
    assert messages.rule_message(error) == "2.4.3: a grand has at most 4 tops, not 5"
