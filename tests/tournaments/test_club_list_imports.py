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
    # A German list's women are "Damen", whatever the director reads the office in.
    assert anna.category.name == "Damen" and anna.start_number == 1
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


def test_the_womens_category_is_named_in_the_lists_language_or_is_the_tournaments_own():
    english_list = "Name;Gender\nAnna Bell;f\n"
    t = factories.tournament()
    assert import_players(t, io.BytesIO(english_list.encode()), "a.csv").errors == []
    assert Registration.objects.get(tournament=t).category.name == "Women"
    # The tournament has its women's category already: the list's women join it.
    other = factories.tournament()
    other.categories.create(name="Frauen")
    german_list = "Nachname;Vorname;Geschlecht\nBell;Anna;w\n"
    assert import_players(other, io.BytesIO(german_list.encode()), "b.csv").errors == []
    assert list(other.categories.values_list("name", flat=True)) == ["Frauen"]


def test_bad_rows_name_the_files_column_and_can_be_skipped():
    """A row with its Vorname filled and no Nachname says "Nachname: empty"; with
    skip_bad_rows the valid rows are registered and the others come back with their rows."""
    t = factories.tournament()
    text = "Nachname;Vorname\nMüller;Anna\n;Bernd\nBecker;Frank\n;Carl\n"
    refused = import_players(t, io.BytesIO(text.encode()), "club.csv")
    assert refused.errors == [
        (3, "Nachname: empty; every player needs a name"),
        (5, "Nachname: empty; every player needs a name"),
    ]
    assert refused.valid == 2 and not Registration.objects.filter(tournament=t).exists()
    done = import_players(t, io.BytesIO(text.encode()), "club.csv", skip_bad_rows=True)
    assert done.errors == [] and done.registered == 2 and [row for row, _ in done.skipped] == [3, 5]
    names = set(Registration.objects.filter(tournament=t).values_list("player__name", flat=True))
    assert names == {"Anna Müller", "Frank Becker"}
