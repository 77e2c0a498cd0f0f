"""core.name_checks: a name a person can read, on every way in (forms, admin, list, file)."""

from __future__ import annotations

import io

import pytest
from django.urls import reverse

from core.name_checks import name_problem
from tests import factories, hostile_xlsx
from tournaments.imports import import_players
from tournaments.models import Club, Player, Registration, Team

INVISIBLE = [
    "\u200b",  # zero-width space
    "\u200b\u200c\u200d\ufeff",  # zero-width (non-)joiners, byte order mark
    "\u2800\u2800",  # braille blank
    "\u3164",  # Hangul filler
    "\u0301",  # a combining accent on nothing
    "\u00ad",  # soft hyphen
]
CONTROL = ["\u202eannA", "Anna\u0007", "\u2066Bernd\u2069"]
ERRORS = ["#DIV/0!", "#N/A", "#nv", "#REF!", "Err:502", "#WERT!"]


@pytest.mark.parametrize("text", INVISIBLE + CONTROL + ERRORS)
def test_not_a_name(text):
    assert name_problem(text)


@pytest.mark.parametrize("text", ["Anna", "José Müller", "O'Neill-Smith", "李小龍", "Zoë 😀", "#1 Skat", "ΑΒΓ"])
def test_a_name(text):
    assert name_problem(text) is None


@pytest.mark.django_db
@pytest.mark.parametrize("field", ["name", "club", "team"])
@pytest.mark.parametrize("text", [INVISIBLE[0], INVISIBLE[1], CONTROL[0], ERRORS[0]])
def test_the_registration_form_refuses_it(client, director, field, text):
    t = factories.tournament(directors=[director])
    data = {"name": "Anna", "first_series": 1, field: text}
    response = client.post(reverse("director:players", args=[t.pk]), data)
    assert response.status_code == 422
    assert "Not a name: " in response.content.decode()
    assert not Registration.objects.exists() and not Club.objects.exists() and not Team.objects.exists()


@pytest.mark.django_db
def test_the_player_list_refuses_it_naming_row_and_column():
    t = factories.tournament()
    text = (
        "name;club;team;membership number\n"
        "Anna;;;\n"
        "\u200b\u200b;;;\n"  # row 3
        "\u202eannA;;;\n"  # row 4
        "#DIV/0!;;;\n"  # row 5
        "Bernd;#N/A;;\n"  # row 6
        "Carla;;\u3164;\n"  # row 7
        "Dora;;;#REF!\n"  # row 8
    )
    result = import_players(t, io.BytesIO(text.encode()), "players.csv")
    assert result.errors == [
        (3, "name: has no visible character"),
        (4, "name: contains a control character (such as a right-to-left override)"),
        (5, "name: #DIV/0! is a spreadsheet error, not a name"),
        (6, "club: #N/A is a spreadsheet error, not a name"),
        (7, "team: has no visible character"),
        (8, "membership number: #REF! is a spreadsheet error, not a value"),
    ]
    assert not Player.objects.exists()


@pytest.mark.django_db
def test_a_workbook_s_error_cells_and_ticks_are_not_names():
    t = factories.tournament()
    inline = hostile_xlsx.inline
    rows = (
        f'<row r="1">{inline("A1", "Name")}{inline("B1", "Team")}</row>'
        f'<row r="2">{inline("A2", "Anna")}</row>'
        '<row r="3"><c r="A3" t="e"><v>#DIV/0!</v></c></row>'
        '<row r="4"><c r="A4" t="b"><v>1</v></c></row>'
        f'<row r="5">{inline("A5", "Bernd")}<c r="B5" t="b"><v>1</v></c></row>'
        f'<row r="6">{inline("A6", "Carla")}<c r="B6" t="b"><v>0</v></c></row>'
    )
    data = hostile_xlsx.workbook(hostile_xlsx.sheet_xml(rows, dimension=None))
    result = import_players(t, io.BytesIO(data), "players.xlsx")
    assert result.errors == [
        # The columns as the file names them.
        (3, "Name: #DIV/0! is a spreadsheet error, not a name"),
        (4, "Name: a ticked box (TRUE) is not text"),
        (5, "Team: a ticked box (TRUE) is not text"),
    ]


@pytest.mark.django_db
def test_the_admin_refuses_it_for_players_clubs_and_teams(client):
    client.force_login(factories.user(superuser=True))
    t = factories.tournament()
    player = factories.player("Anna")
    for url, data in (
        (reverse("admin:tournaments_player_change", args=[player.pk]), {"name": "\u200b", "membership_number": ""}),
        (reverse("admin:tournaments_club_add"), {"name": "\u202e"}),
        (reverse("admin:tournaments_team_add"), {"name": "#N/A", "tournament": t.pk}),
    ):
        response = client.post(url, data)
        assert response.status_code == 200 and "Not a name: " in response.content.decode(), url
    player.refresh_from_db()
    assert player.name == "Anna" and not Club.objects.exists() and not Team.objects.exists()


@pytest.mark.parametrize(
    "name",
    [
        pytest.param("Anna Bell\U000e0049\U000e0047\U000e004e", id="tag characters: hidden ASCII after the name"),
        pytest.param("Anna\u206e 1234", id="U+206E national digit shapes (format control)"),
        pytest.param("Anna\u206b Bell", id="U+206B activate symmetric swapping (format control)"),
        pytest.param("\U0001d159", id="U+1D159 musical symbol null notehead alone (blank)"),
    ],
)
def test_hidden_format_characters_are_not_a_name(name):
    """Severity low. name_checks refuses Unicode's bidirectional controls and invisible
    characters *alone*, but lets other invisible format characters through inside a name:
    the tag characters U+E0020-E007F (a whole hidden ASCII text after a visible name, shown
    nowhere but read by anything that copies the name), and the deprecated format
    controls U+206A-206F, which, like the bidi controls already refused, change how the
    text around them is shown (digit shapes, mirrored brackets); U+1D159 (a "symbol" that
    renders blank) passes alone as a name. Expected: "Not a name" for each, as for
    U+202E."""
    assert name_problem(name) is not None
