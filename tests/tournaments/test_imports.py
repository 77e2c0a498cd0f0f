"""Registering players from a list: every row checked, row numbers in the messages, all or nothing."""

from __future__ import annotations

import datetime
import io

import pytest
from django.utils import translation
from openpyxl import Workbook

from core.spreadsheets import SpreadsheetError
from draw.series import draw_series
from office.demo import PLAYERS_CSV
from tests import factories
from tournaments.imports import import_players
from tournaments.models import Club, Player, Registration, Team

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english():
    """Messages in English whatever language an earlier test left active."""
    with translation.override("en"):
        yield


def csv_file(text: str) -> io.BytesIO:
    return io.BytesIO(text.encode("utf-8-sig"))


def test_the_demo_players_file_imports():
    t = factories.tournament()
    with PLAYERS_CSV.open("rb") as handle:
        result = import_players(t, handle, "demo_players.csv")
    assert result.errors == [] and result.created == 24
    assert Registration.objects.filter(tournament=t).count() == 24
    anna = Player.objects.get(membership_number="DEMO-001")
    assert (anna.name, anna.club.name, anna.nationality) == ("Anna Müller", "Herz Dame Altenburg", "DE")
    assert Registration.objects.get(tournament=t, player=anna).team.name == "Herz Dame Altenburg I"
    assert t.teams.count() == 6


def test_a_german_xlsx_list_registers_known_players_by_number():
    t = factories.tournament()
    known = factories.player("Jürgen Groß", club="SC Köln", membership_number="4711")
    workbook = Workbook()
    for row in [
        ["Name", "Verein", "Mitgliedsnummer", "Nation", "Mannschaft"],
        ["jürgen groß", "SC Köln", 4711, "de", "Köln 1"],
        ["Eva  Weiß", "Neuer Verein", None, None, "Köln 1"],
        [None, None, None, None, None],
    ]:
        workbook.active.append(row)
    out = io.BytesIO()
    workbook.save(out)
    out.seek(0)
    result = import_players(t, out, "liste.xlsx")
    assert result.errors == [] and (result.created, result.existing) == (1, 1)
    registrations = {r.player.name: r for r in Registration.objects.filter(tournament=t).select_related("player")}
    assert registrations["Jürgen Groß"].player == known
    assert registrations["Eva Weiß"].player.club.name == "Neuer Verein"
    assert Team.objects.get(tournament=t).members.count() == 2


def test_bad_rows_are_reported_with_row_numbers_and_nothing_is_written():
    t = factories.tournament()
    factories.player("Karl Berger", membership_number="100")
    registered = factories.player("Lisa Lang", membership_number="200")
    Registration.objects.create(tournament=t, player=registered)
    text = (
        "name;club;membership number;nationality\n"
        "Good Player;Club A;300;DE\n"  # row 2: fine
        ";Club A;301;DE\n"  # row 3: empty name
        "Dup One;Club A;302;DE\n"  # row 4
        "Dup Two;Club A;302;DE\n"  # row 5: number twice in the file
        "Someone Else;;100;\n"  # row 6: number of another name
        "Lisa Lang;;200;\n"  # row 7: already registered
        f"{'N' * 121};;;\n"  # row 8: too long
        "Max Mix;;;GERMANY\n"  # row 9: nationality too long
        "Same Name;Club B;;\n"  # row 10
        "Same Name;Club B;;\n"  # row 11: same player twice without a number
    )
    players_before = Player.objects.count()
    result = import_players(t, csv_file(text), "players.csv")
    rows = [row for row, _message in result.errors]
    assert rows == [3, 5, 6, 7, 8, 9, 11]
    messages = dict(result.errors)
    assert "empty" in messages[3]
    assert "row 4" in messages[5]
    assert "belongs to another player, not Someone Else" in messages[6]  # Karl plays nowhere this user sees
    assert "already registered" in messages[7]
    assert "longer than 120" in messages[8]
    assert "nationality" in messages[9]
    assert "row 10" in messages[11]
    assert Player.objects.count() == players_before
    assert Registration.objects.filter(tournament=t).count() == 1
    assert not Club.objects.filter(name="Club A").exists()


def test_an_unnumbered_player_already_registered_is_refused():
    t = factories.tournament()
    import_players(t, csv_file("name;club\nOtto Ohne;Club C\n"), "a.csv")
    result = import_players(t, csv_file("Name;Verein\nOtto Ohne;Club C\n"), "a.csv")
    assert result.errors == [(2, "Otto Ohne is already registered (give a membership number to tell them apart)")]


def test_a_row_without_number_matching_a_numbered_registration_is_refused():
    """The review's case: registered with a number, listed again without one."""
    t = factories.tournament()
    import_players(t, csv_file("name;club;membership number\nAlma Acker;SC Nord;T-002\n"), "a.csv")
    result = import_players(t, csv_file("name;club\nalma acker;SC Nord\n"), "b.csv")
    assert result.errors == [(2, "alma acker is already registered (give a membership number to tell them apart)")]
    # Another Alma Acker of the same club, told apart by her own number, is welcome.
    result = import_players(t, csv_file("name;club;membership number\nAlma Acker;SC Nord;T-099\n"), "c.csv")
    assert result.errors == [] and t.registrations.count() == 2


def test_late_lists_play_from_the_next_series():
    t = factories.tournament(series_count=2)
    factories.registered(t, 6)
    draw_series(t)
    result = import_players(t, csv_file("name\nLate Comer\n"), "late.csv")
    assert result.errors == []
    assert Registration.objects.get(player__name="Late Comer").first_series == 2


def test_no_import_once_every_series_is_drawn():
    t = factories.tournament(series_count=1)
    factories.registered(t, 6)
    draw_series(t)
    with pytest.raises(SpreadsheetError, match="The 1 series is drawn"):
        import_players(t, csv_file("name\nToo Late\n"), "late.csv")


def test_missing_name_column():
    t = factories.tournament()
    with pytest.raises(SpreadsheetError, match="Missing columns: Name"):
        import_players(t, csv_file("club;nation\nA;DE\n"), "x.csv")


def test_a_nul_byte_far_down_the_file_is_refused_before_the_database_sees_it():
    """PostgreSQL refuses NUL in text: a binary file is told apart by its whole content."""
    t = factories.tournament()
    rows = "".join(f"Player {i};Club\n" for i in range(600))
    data = ("name;club\n" + rows + "Bad\x00Name;Club\n").encode()
    assert len(data) > 4096
    with pytest.raises(SpreadsheetError, match="not a CSV text file"):
        import_players(t, io.BytesIO(data), "x.csv")
    assert not Player.objects.exists()


@pytest.mark.parametrize(
    "rows",
    [
        "Alma Acker;SC Nord;T-002\nalma acker;SC Nord;\n",  # numbered first, then without a number
        "alma acker;SC Nord;\nAlma Acker;SC Nord;T-002\n",  # without a number first
    ],
)
def test_one_player_with_and_without_a_number_in_one_file_is_refused(rows):
    t = factories.tournament()
    result = import_players(t, csv_file("name;club;membership number\n" + rows), "a.csv")
    assert result.errors == [
        (3, "alma acker: already in row 2 of this file (give a membership number to tell them apart)")
        if rows.startswith("Alma")
        else (3, "Alma Acker: already in row 2 of this file (give a membership number to tell them apart)")
    ]
    assert not t.registrations.exists()
    # Two namesakes of one club, each with his own number, are two players.
    result = import_players(
        t, csv_file("name;club;membership number\nAlma Acker;SC Nord;T-1\nAlma Acker;SC Nord;T-2\n"), "b.csv"
    )
    assert result.errors == [] and t.registrations.count() == 2


def test_a_number_of_another_name_names_its_player_only_to_a_director_who_sees_him():
    """Players are shared by all tournaments: a director learns no name from another's tournament."""
    theirs = factories.tournament(directors=[factories.user("other")])
    Registration.objects.create(tournament=theirs, player=factories.player("Karl Berger", membership_number="100"))
    director = factories.user("me")
    mine = factories.tournament(directors=[director])
    text = "name;membership number\nSomeone Else;100\n"
    result = import_players(mine, csv_file(text), "players.csv", user=director)
    assert result.errors == [(2, "membership number 100 belongs to another player, not Someone Else")]
    theirs.directors.add(director)
    result = import_players(mine, csv_file(text), "players.csv", user=director)
    assert result.errors == [(2, "membership number 100 belongs to Karl Berger, not Someone Else")]
    superuser = factories.user("root", superuser=True)
    assert "Karl Berger" in import_players(mine, csv_file(text), "players.csv", user=superuser).errors[0][1]


def test_a_team_in_other_case_is_the_same_team():
    """A team "kiel" in the list is the team Kiel (typed or imported before): one team, mates apart."""
    t = factories.tournament()
    kiel = Team.objects.create(tournament=t, name="Kiel")
    text = "name,club,membership_number,nationality,team\nAnna,,,DE,kiel\nBernd,,,DE,KIEL\nCarl,,,DE,Lübeck\n"
    result = import_players(t, csv_file(text), "players.csv")
    assert result.errors == [] and result.created == 3
    assert {r.team_id for r in Registration.objects.filter(tournament=t, player__name__in=["Anna", "Bernd"])} == {
        kiel.pk
    }
    assert sorted(t.teams.values_list("name", flat=True)) == ["Kiel", "Lübeck"]


def test_a_column_the_office_does_not_know_is_listed_and_left_out():
    t = factories.tournament()
    result = import_players(t, csv_file("Name;Verein;Telefon;Geburtsjahr\nAnna Berg;Kiel;0431 12;1961\n"), "x.csv")
    assert (result.errors, result.registered, result.ignored_columns) == ([], 1, ["Telefon"])
    assert Registration.objects.get(tournament=t).player.birth_year == 1961


def test_a_heading_written_twice_is_named_once_and_a_column_without_heading_by_its_position():
    t = factories.tournament()
    text = "Name;Telefon;;Telefon;\nAnna Berg;0431;x;0171;\nBernd Kahl;;;;\n"
    result = import_players(t, csv_file(text), "x.csv")
    assert result.errors == [] and result.registered == 2
    assert result.ignored_columns == ["Telefon", "column 3 (no heading)"]


@pytest.mark.parametrize(
    ("cell", "year"),
    [("1961", 1961), ("12.03.1961", 1961), ("3/12/1961", 1961), ("1961-03-12", 1961), ("", None)],
)
def test_a_year_of_birth_is_read_from_a_year_or_a_date(cell, year):
    t = factories.tournament()
    import_players(t, csv_file(f"Name;Jahrgang\nAnna Berg;{cell}\n"), "x.csv")
    assert Registration.objects.get(tournament=t).player.birth_year == year


@pytest.mark.parametrize(
    "cell", ["61", "1961a", "1850", "2999", "12.03.", "\u0661\u0669\u0666\u0661", "\uff11\uff19\uff16\uff11"]
)
def test_a_year_of_birth_that_is_none_names_its_column_and_the_rule(cell):
    t = factories.tournament()
    result = import_players(t, csv_file(f"Name;Geburtsjahr\nAnna Berg;{cell}\n"), "x.csv")
    assert result.registered == 0 and not Registration.objects.exists()
    [(row, message)] = result.errors
    assert row == 2 and message.startswith(f"Geburtsjahr: {cell} is not a year")


def test_age_categories_follow_from_the_year_of_birth_by_the_tournaments_rules():
    """Worked by hand for a tournament in 2026, ages at 1 January 2026: born 2005 is 20 (a
    junior under 21), born 2004 is 21 (none), born 1965 is 60 (a senior of 60 or older),
    born 1966 is 59 (none); a woman's own category and a category the row names win."""
    t = factories.tournament(date=datetime.date(2026, 6, 1))
    t.categories.create(name="Junioren", age_under=21)
    t.categories.create(name="Senioren", age_from=60)
    rows = (
        "Name;Geburtsjahr;Geschlecht;Kategorie\n"
        "Jan Jung;2005;m;\nKai Kurz;2004;m;\nSepp Alt;1965;m;\nOtto Oft;1966;m;\n"
        "Erna Eck;1950;w;\nKurt Kahl;1950;m;Gast\n"
    )
    result = import_players(t, csv_file(rows), "x.csv")
    assert result.errors == []
    categories = dict(Registration.objects.filter(tournament=t).values_list("player__name", "category__name"))
    assert categories == {
        "Jan Jung": "Junioren",
        "Kai Kurz": None,
        "Sepp Alt": "Senioren",
        "Otto Oft": None,
        "Erna Eck": "Damen",
        "Kurt Kahl": "Gast",
    }


def test_on_a_german_page_the_missing_column_is_named_in_german():
    t = factories.tournament()
    with translation.override("de"), pytest.raises(SpreadsheetError) as refused:
        import_players(t, csv_file("Verein\nKiel\n"), "x.csv")
    assert str(refused.value).startswith("Es fehlen Spalten: Name.")
    assert "first_name" not in str(refused.value) and "Vorname" in str(refused.value)
