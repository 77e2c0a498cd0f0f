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
    untranslated = [e.msgid for e in catalogue if not e.msgstr and not e.obsolete]
    fuzzy = [e.msgid for e in catalogue.fuzzy_entries()]
    assert untranslated == [] and fuzzy == []


def test_placeholders_survive_translation():
    import re

    for entry in polib.pofile(str(CATALOGUE)):
        names = sorted(re.findall(r"%\((\w+)\)s", entry.msgid))
        assert sorted(re.findall(r"%\((\w+)\)s", entry.msgstr)) == names, entry.msgid


@pytest.mark.django_db
def test_the_table_page_in_german(client):
    call_command("compiletranslations")
    table = factories.table_of(4)
    page = client.get(reverse("tables:sheet", args=[table.token]), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    for word in ("Spiel 1", "Alleinspieler", "Eingepasst", "Spitzen", "Spiel eintragen", "Seat1 gibt", "setzt aus"):
        assert word in page
    assert "Enter deal" not in page


@pytest.mark.django_db
def test_the_language_switch_sets_german(client):
    call_command("compiletranslations")
    response = client.post(reverse("set_language"), {"language": "de", "next": "/"})
    assert response.status_code == 302
    assert "Skat-Turnierbüro" in client.get("/").content.decode()
