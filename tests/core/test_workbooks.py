"""Hostile XLSX files (tests/hostile_xlsx.py) read through core.workbooks and the players form.

Each case is answered with a clear message or with the few rows it really holds, and
reading it never takes more than a few MB: before the archive checks, the dimension
bomb and the wide rows took 630 MB, the deflate bomb 310 MB and the shared strings
bomb 560 MB (and 166 s).
"""

from __future__ import annotations

import io
import tracemalloc

import pytest
from django.contrib.messages import get_messages
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from core.spreadsheets import SpreadsheetError, raw_rows
from core.workbooks import TOURNAMENT_FILES, Limits, WorkbookError, check_archive, open_workbook, rows
from tests import factories, hostile_xlsx
from tests.fuzz.test_director_forms_fuzz import snapshot
from tournaments.models import Registration

#: What each hostile file is answered with: the rows it holds, or the refusal's reason.
EXPECTED = {
    "dimension bomb": [["Name"], ["Anna Sommer"], ["Zoe Winter"]],
    "wide rows": [["Name"], ["Anna Sommer"]],  # columns after the 64th are never read
    "far rows": [["Name"], ["Anna Sommer"]],  # nor rows far after the last one read
    "too many columns": "has values in column BM; at most 64 columns are read",
    "shared strings bomb": "unpacks to more than 48.0 MB",
    "many shared strings": "The part xl/sharedStrings.xml of the workbook unpacks to 12.0 MB; at most 2.0 MB",
    "deflate bomb": "unpacks to more than 48.0 MB",
    "compression ratio": "is compressed 1017 times; at most 200 times is read",
    "lying sizes": "not a readable XLSX workbook",
    "truncated xml": "The sheet Tournament cannot be read after row 1",
    "bad value": "The sheet Tournament cannot be read after row 1",
    "bad date": "The sheet Tournament cannot be read after row 1",
    "bad cell reference": "The sheet Tournament cannot be read after row 1",
    "bad row number": "The sheet Tournament cannot be read after row 1",
    "bad shared string index": "The sheet Tournament cannot be read after row 1",
    "billion laughs": "declares a document type",
    "external entity": "declares a document type",
    "utf-16 sheet": "is not UTF-8 XML",
    "missing sheet": "The workbook has no sheet.",
    "many members": "The workbook has 3006 parts; at most 500 are read.",
}
#: Reading any of them stays below this (tracemalloc's peak of Python's allocations).
PEAK_BYTES = 16 * 2**20


def test_every_hostile_case_has_an_expectation():
    assert set(EXPECTED) == set(hostile_xlsx.HOSTILE)


def _peak(read):
    tracemalloc.start()
    try:
        try:
            outcome = [values for values in read() if values]
        except SpreadsheetError as error:
            outcome = str(error)
        return outcome, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize("case", sorted(hostile_xlsx.HOSTILE))
def test_a_hostile_workbook_is_answered_in_little_memory(case):
    data = hostile_xlsx.HOSTILE[case]()
    outcome, peak = _peak(lambda: raw_rows(io.BytesIO(data), "list.xlsx"))
    expected = EXPECTED[case]
    if isinstance(expected, str):
        assert isinstance(outcome, str), outcome
        assert expected in outcome
    else:
        assert outcome == expected
    assert peak < PEAK_BYTES, f"{case}: {peak / 2**20:.1f} MB"


def test_a_value_in_the_first_row_past_the_last_is_refused():
    data = hostile_xlsx.workbook(hostile_xlsx.sheet_xml(f'<row r="12">{hostile_xlsx.inline("A12", "x")}</row>'))
    workbook = open_workbook(io.BytesIO(data))
    with pytest.raises(WorkbookError, match="has values in row 12; at most 11 rows are read"):
        list(rows(workbook.worksheets[0], last_row=11))
    workbook.close()


def test_the_limits_are_the_callers():
    data = hostile_xlsx.many_shared_strings()
    with pytest.raises(WorkbookError, match=r"at most 4\.0 MB is read"):
        check_archive(io.BytesIO(data), TOURNAMENT_FILES)
    check_archive(io.BytesIO(data), Limits(shared_strings=16 * 2**20))
    with pytest.raises(WorkbookError, match=r"unpacks to more than 0\.0 MB"):
        check_archive(io.BytesIO(data), Limits(unpacked=1000))


def test_a_normal_workbook_still_reads():
    from openpyxl import Workbook

    book = Workbook()
    book.active.append(["Name", "Verein"])
    book.active.append(["Anna Sommer", "Herz Dame"])
    out = io.BytesIO()
    book.save(out)
    assert raw_rows(io.BytesIO(out.getvalue()), "list.xlsx") == [["Name", "Verein"], ["Anna Sommer", "Herz Dame"]]


@pytest.mark.django_db
@pytest.mark.parametrize("case", sorted(hostile_xlsx.HOSTILE))
def test_the_players_form_answers_every_hostile_workbook(client, case):
    director = factories.user()
    client.force_login(director)
    t = factories.tournament(directors=[director])
    before = snapshot()
    upload = SimpleUploadedFile("list.xlsx", hostile_xlsx.HOSTILE[case]())
    response = client.post(reverse("director:players_import", args=[t.pk]), {"file": upload})
    assert response.status_code == 302
    shown = [str(m) for m in get_messages(response.wsgi_request)]
    expected = EXPECTED[case]
    if isinstance(expected, str):
        assert len(shown) == 1 and shown[0].startswith("Nothing was imported: ") and expected in shown[0], shown
        assert snapshot() == before
    else:
        names = {r.player.name for r in Registration.objects.filter(tournament=t).select_related("player")}
        assert names == {row[0] for row in expected[1:]}


def test_reading_past_the_time_budget_is_refused():
    """Limits.seconds counts this thread's CPU from opening the workbook to the row read."""
    workbook = open_workbook(io.BytesIO(hostile_xlsx.workbook()), Limits(seconds=0.0))
    with pytest.raises(WorkbookError, match=r"takes more than 0\.0 s to read \(sheet Tournament, row 0\)"):
        list(rows(workbook.worksheets[0]))
    workbook.close()


def test_the_workbook_keeps_the_limits_it_was_opened_with():
    data = hostile_xlsx.workbook(hostile_xlsx.sheet_xml(f'<row r="12">{hostile_xlsx.inline("A12", "x")}</row>'))
    workbook = open_workbook(io.BytesIO(data), Limits(rows=11))
    with pytest.raises(WorkbookError, match="has values in row 12; at most 11 rows are read"):
        list(rows(workbook.worksheets[0]))
    workbook.close()
