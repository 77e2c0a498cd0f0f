"""Hostile XLSX files (tests/hostile_xlsx.py) on a table's sheet import and as a tournament file.

Every one is answered with a clear message and nothing is written; the reader's own
cases and memory figures are in tests/core/test_workbooks.py.
"""

from __future__ import annotations

import io
import zipfile
from xml.etree import ElementTree

import pytest
from django.contrib.messages import get_messages
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.urls import reverse

from tests import factories, hostile_xlsx
from tests.core.test_workbooks import EXPECTED
from tests.fuzz.test_director_forms_fuzz import snapshot
from tournaments.models import Tournament
from transfer.exports import league_xlsx

pytestmark = pytest.mark.django_db

#: A tournament file may unpack to more than an upload (core.workbooks.TOURNAMENT_FILES).
TOURNAMENT_FILE_EXPECTED = {
    **EXPECTED,
    "shared strings bomb": "The part xl/sharedStrings.xml of the workbook unpacks to 97.3 MB; at most 4.0 MB",
    "deflate bomb": "xl/worksheets/sheet1.xml of the workbook is compressed 1028 times; at most 200",
    "missing sheet": "sheet 'Tournament' is missing",
    "too many columns": "Tournament, Format: this office reads format",  # its first row is the header
    "many shared strings": "The part xl/sharedStrings.xml of the workbook unpacks to 12.0 MB; at most 4.0 MB",
}


@pytest.mark.parametrize("case", sorted(hostile_xlsx.HOSTILE))
def test_the_sheet_import_answers_every_hostile_workbook(client, case):
    director = factories.user()
    client.force_login(director)
    table = factories.table_of(3, rounds_per_series=1, directors=[director])
    url = reverse("director:sheet_import", args=[table.series.tournament_id, 1, table.number])
    before = snapshot()
    response = client.post(url, {"file": SimpleUploadedFile("sheet.xlsx", hostile_xlsx.HOSTILE[case]())})
    assert response.status_code == 302
    shown = [str(m) for m in get_messages(response.wsgi_request)]
    assert shown[0].startswith("Nothing was imported: "), shown
    expected = EXPECTED[case]
    # The benign ones hold a player list, not a sheet: refused for its columns.
    assert (expected if isinstance(expected, str) else "Missing columns: deal, declarer") in shown[0]
    assert snapshot() == before


@pytest.mark.parametrize("case", sorted(hostile_xlsx.HOSTILE))
def test_a_hostile_tournament_file_imports_nothing(tmp_path, case):
    path = tmp_path / "tournament.xlsx"
    path.write_bytes(hostile_xlsx.HOSTILE[case]())
    expected = TOURNAMENT_FILE_EXPECTED[case]
    if not isinstance(expected, str):
        expected = "Tournament, Format: this office reads format"
    with pytest.raises(CommandError, match="Nothing imported: ") as refused:
        call_command("import_tournament", str(path))
    assert expected in str(refused.value)
    assert not Tournament.objects.exists()


def _part(archive: zipfile.ZipFile, title: str) -> str:
    """The archive member of the sheet called ``title`` (by the workbook's relationships)."""
    r = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}id"
    sheets = ElementTree.fromstring(archive.read("xl/workbook.xml")).iter()
    rid = next(sheet.get(r) for sheet in sheets if sheet.get("name") == title)
    relationships = ElementTree.fromstring(archive.read("xl/_rels/workbook.xml.rels"))
    target = next(rel.get("Target") for rel in relationships if rel.get("Id") == rid)
    return target.lstrip("/") if target.startswith("/") else f"xl/{target}"


def test_a_malformed_games_sheet_is_refused_with_its_row(tmp_path):
    """A tournament file whose Games sheet holds a number cell that is text: refused, nothing kept."""
    t, _series = factories.drawn(players=3)
    out = io.BytesIO()
    league_xlsx(t, out)
    path = tmp_path / "broken.xlsx"
    with zipfile.ZipFile(io.BytesIO(out.getvalue())) as source, zipfile.ZipFile(path, "w") as target:
        games = _part(source, "Games")
        for member in source.infolist():
            data = source.read(member)
            if member.filename == games:
                data = data.replace(b"</sheetData>", b'<row r="2"><c r="A2"><v>zwei</v></c></row></sheetData>')
            target.writestr(member, data)
    count = Tournament.objects.count()
    with pytest.raises(CommandError, match="The sheet Games cannot be read after row 1: the file is damaged"):
        call_command("import_tournament", str(path))
    assert Tournament.objects.count() == count
