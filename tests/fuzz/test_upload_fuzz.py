"""Random and near-valid uploads: the player list and a table's paper scoresheet.

Random bytes, truncated and garbled XLSX workbooks, CSVs in odd encodings with BOMs,
other separators, huge lines, formula-like cells, missing, duplicate and unknown
headers, and correct headers with random cells (so accepted imports are fuzzed too).
Never a 500; a refused upload writes nothing and every message names the file's
problem or the row (and column) of each bad cell.
"""

from __future__ import annotations

import io
import re

import pytest
from django.contrib.messages import get_messages
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from hypothesis import event, example, given
from hypothesis import strategies as st
from openpyxl import Workbook

from scoring.models import Game
from tests import factories
from tournaments.models import Registration

from .strategies import FUZZ, NASTY, junk
from .test_director_forms_fuzz import snapshot

pytestmark = pytest.mark.django_db

PLAYER_HEADERS = ["Name", "Verein", "Mitglieds-Nr.", "Nationality", "Team", "name", "Gewicht", ""]
SHEET_HEADERS = [
    "Nr",
    "Geber",
    "Alleinspieler",
    "Spiel",
    "mit/ohne",
    "Spitzen",
    "Hand",
    "Augen",
    "Stiche",
    "Reizwert",
    "Eingepasst",
    "Spielwert",
    "Grundwert",
    "mit",
    "ohne",
    "Überreizt",
    "Ergebnis",
    "Spieler",
    "Unbekannt",
]
FORMULAS = ["=1+1", '=HYPERLINK("http://x")', "@SUM(A1)", "+49 1", "-2+3", "=cmd|' /C calc'!A0"]
cell_text = st.one_of(
    junk,
    st.sampled_from(FORMULAS),
    st.sampled_from(["x", "ja", "1", "0", "Kreuz", "Grand", "Null", "mit", "ohne", "Seat1", "Seat2", "Seat3", "-"]),
    st.integers(-5, 130).map(str),
)


def _csv(rows: list[list[str]], separator: str) -> str:
    return "\n".join(separator.join(cells) for cells in rows) + "\n"


def _encode(text: str, encoding: str) -> bytes:
    if encoding == "utf-8-sig":
        return "\ufeff".encode() + text.encode("utf-8", "surrogatepass")
    return text.encode(encoding, "replace" if encoding != "utf-8" else "surrogatepass")


def _xlsx(rows: list[list[str]]) -> bytes:
    workbook = Workbook()
    sheet = workbook.active
    for cells in rows:
        # XML has no control characters: what a spreadsheet program could have saved.
        sheet.append([re.sub(r"[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff]", "", c)[:500] for c in cells])
    out = io.BytesIO()
    workbook.save(out)
    return out.getvalue()


@st.composite
def uploads(draw, headers: list[str], good_rows: list[list[str]]) -> tuple[str, bytes]:
    """A file name and its bytes: random, or a table of a correct or broken header and rows."""
    kind = draw(st.sampled_from(["bytes", "table", "table", "table", "good"]))
    if kind == "bytes":
        name = draw(st.sampled_from(["list.csv", "list.xlsx", "list.pdf", "list", "l.txt"]))
        return name, draw(
            st.one_of(st.binary(max_size=300), st.sampled_from([b"PK\x03\x04junk", b"\xd0\xcf\x11\xe0"]))
        )
    if kind == "good":
        header, rows = good_rows[0], [list(r) for r in good_rows[1:]]
        # A correct header with some cells replaced by random values.
        for _ in range(draw(st.integers(0, 3))):
            if rows:
                r = draw(st.integers(0, len(rows) - 1))
                c = draw(st.integers(0, len(header) - 1))
                rows[r][c] = draw(cell_text)
    else:
        header = draw(st.lists(st.sampled_from(headers), min_size=1, max_size=6))
        rows = draw(st.lists(st.lists(cell_text, min_size=0, max_size=len(header) + 1), max_size=5))
    table = [header, *rows]
    if draw(st.booleans()):
        table.append(["9" * draw(st.sampled_from([10, 5000, 200_000]))])  # a huge line
    container = draw(st.sampled_from(["csv", "csv", "xlsx", "xlsx-truncated", "xlsx-garbled"]))
    if container == "csv":
        encoding = draw(st.sampled_from(["utf-8", "utf-8-sig", "cp1252", "utf-16", "latin-1"]))
        separator = draw(st.sampled_from([";", ",", "\t", "|"]))
        return draw(st.sampled_from(["list.csv", "list.xlsx", "LIST.CSV"])), _encode(_csv(table, separator), encoding)
    data = _xlsx(table)
    # A place in the file drawn independently of its length: a saved workbook carries the
    # time it was saved, so its length varies by a byte between runs, and a bound that
    # depends on it makes hypothesis's draws differ between the runs of one example.
    place = draw(st.integers(0, 2**20))
    if container == "xlsx-truncated":
        data = data[: 4 + place % (len(data) - 4)]
    elif container == "xlsx-garbled":
        at = 30 + place % (len(data) - 30)
        data = data[:at] + draw(st.binary(min_size=1, max_size=40)) + data[at + 40 :]
    return "list.xlsx", data


ROW_MESSAGE = re.compile(r"^Row \d+: \S")


def _post(client, url, name: str, data: bytes):
    client.cookies.pop("messages", None)
    response = client.post(url, {"file": SimpleUploadedFile(name, data)})
    assert response.status_code == 302
    return [(m.level_tag, str(m)) for m in get_messages(response.wsgi_request)]


def _check_refusal(messages: list[tuple[str, str]]) -> None:
    errors = [text for level, text in messages if level == "error"]
    assert errors[0].startswith(("Nothing was imported", "Choose a CSV")), errors
    for text in errors[1:]:
        assert ROW_MESSAGE.match(text) or text.startswith("... and "), text


@pytest.fixture
def director_client():
    director = factories.user("director")
    client = Client()
    client.force_login(director)
    return director, client


GOOD_PLAYERS = [
    ["Name", "Verein", "Mitgliedsnummer", "Nation", "Mannschaft"],
    ["Anna Sommer", "Herz Dame", "1001", "DE", "A"],
    ["Bernd Winter", "", "", "at", ""],
    ["Carla Herbst", "Herz Dame", "1003", "", "A"],
]


@FUZZ
@given(upload=uploads(PLAYER_HEADERS, GOOD_PLAYERS))
@example(upload=("list.csv", b"Name;Verein\nAnna;=1+1\n"))
def test_importing_a_player_list(director_client, upload):
    director, client = director_client
    t = factories.tournament(directors=[director], series_count=2)
    name, data = upload
    before = snapshot()
    messages = _post(client, reverse("director:players_import", args=[t.pk]), name, data)
    levels = {level for level, _text in messages}
    event(f"levels {sorted(levels)}")
    if "error" in levels:
        assert snapshot() == before
        _check_refusal(messages)
    else:
        assert Registration.objects.filter(tournament=t).count() > 0
        for registration in Registration.objects.filter(tournament=t).select_related("player"):
            assert registration.player.name and "\x00" not in registration.player.name


GOOD_SHEET = [
    ["Nr", "Alleinspieler", "Spiel", "Spitzen", "Augen", "Reizwert", "Eingepasst"],
    ["1", "Seat1", "Kreuz", "1", "70", "24", ""],
    ["2", "Seat2", "Grand", "2", "80", "", ""],
    ["3", "", "", "", "", "", "x"],
]


@FUZZ
@given(upload=uploads(SHEET_HEADERS, GOOD_SHEET))
def test_importing_a_paper_scoresheet(director_client, upload):
    director, client = director_client
    table = factories.table_of(3, rounds_per_series=1, directors=[director])
    url = reverse("director:sheet_import", args=[table.series.tournament_id, 1, table.number])
    name, data = upload
    before = snapshot()
    messages = _post(client, url, name, data)
    levels = {level for level, _text in messages}
    event(f"levels {sorted(levels)}")
    if "error" in levels:
        assert snapshot() == before
        _check_refusal(messages)
        for _level, text in messages[1:]:
            if text.startswith("Row "):
                assert re.match(r"Row \d+: [a-zé/ ]+: ", text, re.IGNORECASE), text  # the row and the column
    else:
        games = list(Game.objects.filter(table=table))
        assert games
        for game in games:
            stored = [getattr(game, f) for f in Game.COMPUTED_FIELDS]
            game.apply_rules(table.size)
            assert [getattr(game, f) for f in Game.COMPUTED_FIELDS] == stored


@FUZZ
@given(upload=st.sampled_from(NASTY))
def test_no_file_at_all(director_client, upload):
    director, client = director_client
    t = factories.tournament(directors=[director])
    client.cookies.pop("messages", None)
    before = snapshot()
    response = client.post(reverse("director:players_import", args=[t.pk]), {"file": upload})
    assert response.status_code == 302
    assert snapshot() == before
    assert [str(m) for m in get_messages(response.wsgi_request)] == ["Choose a CSV or XLSX file to upload."]
