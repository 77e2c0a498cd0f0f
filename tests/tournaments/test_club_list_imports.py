"""Club lists as clubs keep them: surname and first name in two columns, the gender,
membership numbers with leading zeros (in CSV text and in XLSX number cells)."""

from __future__ import annotations

import io

import pytest
from django.utils import translation
from openpyxl import Workbook

from tests import factories
from tournaments.imports import import_players
from tournaments.models import Registration

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


def test_a_separate_first_name_column_and_the_gender_make_name_and_category():
    t = factories.tournament()
    text = "Nachname;Vorname;Verein;Mitgliedsnummer;Geschlecht\nMüller;Anna;SC Altenburg;00417;w\nBecker;Frank;;;m\n"
    result = import_players(t, io.BytesIO(text.encode()), "club.csv")
    assert result.errors == []
    anna = Registration.objects.get(tournament=t, player__name="Anna Müller")
    assert anna.player.membership_number == "00417", "read as text: the leading zeros stay"
    assert anna.category.name == "Women" and anna.start_number == 1
    frank = Registration.objects.get(tournament=t, player__name="Frank Becker")
    assert frank.category is None and frank.start_number == 2
    assert frank.player.sort_key == "becker frank"


def test_xlsx_number_cells_formatted_with_leading_zeros_keep_them():
    """A club list's membership number typed as a number but shown as 00417 (format
    ``00000``) keeps its zeros; a number without such a format cannot (it is 417)."""
    book = Workbook()
    sheet = book.active
    sheet.append(["Name", "Vorname", "Mitgliedsnummer"])
    sheet.append(["Müller", "Anna", 417])
    sheet["C2"].number_format = "00000"
    sheet.append(["Becker", "Frank", 9])
    out = io.BytesIO()
    book.save(out)
    out.seek(0)
    t = factories.tournament()
    assert import_players(t, out, "club.xlsx").errors == []
    numbers = dict(Registration.objects.filter(tournament=t).values_list("player__name", "player__membership_number"))
    assert numbers == {"Anna Müller": "00417", "Frank Becker": "9"}


def test_a_namesake_written_the_other_way_round_is_the_registered_player():
    t = factories.tournament()
    factories_text = "Name;Verein\nAnna Schäfer;SC Altenburg\n"
    assert import_players(t, io.BytesIO(factories_text.encode()), "a.csv").errors == []
    result = import_players(t, io.BytesIO("Name;Verein\nSchäfer, Anna;SC Altenburg\n".encode()), "b.csv")
    assert result.errors and "already registered" in result.errors[0][1]
    assert t.registrations.count() == 1
