"""core.tabular: what the office's one CSV/XLSX writer does to a cell, and what the import undoes."""

from __future__ import annotations

import datetime
import io
from decimal import Decimal

import openpyxl
import pytest
from django.utils.translation import gettext_lazy

from core.tabular import FORMULA_STARTS, Sheet, cells, csv_text, text, typed, write_xlsx


@pytest.mark.parametrize("start", FORMULA_STARTS)
def test_formula_like_text_gets_an_apostrophe_and_comes_back(start):
    assert text(start + "1+1") == "'" + start + "1+1"
    assert typed(text(start + "x")) == start + "x"


def test_other_cells_stay_as_they_are():
    day = datetime.date(2026, 11, 23)
    row = ["Anna", "", None, -3, 2.5, Decimal("1.50"), day, True, "'s Gravenhage"]
    assert cells(row) == ["Anna", None, None, -3, 2.5, Decimal("1.50"), day, True, "'s Gravenhage"]
    assert typed("'Anna") == "'Anna" and typed(None) == "" and typed(" 12 ") == "12"


@pytest.mark.parametrize("name", ["'=x", "''@SUM(A1)", "'-2+3", "'", "''", "'Anna", "=1", "-", "'\t=1"])
def test_a_name_with_apostrophes_comes_back_as_it_was(name):
    """An apostrophe before formula-like text is escaped too, so the import cannot take off
    one the name really had (a name "'=x" came back as "=x")."""
    assert typed(text(name)) == name
    assert not text(name).startswith(FORMULA_STARTS)


def test_anything_else_is_written_as_its_escaped_text():
    """A lazy translation or an object is text in the file: it passes the guard as text."""

    class Named:
        def __str__(self) -> str:
            return "=Named()"

    assert cells([gettext_lazy("Place"), Named()]) == ["Place", "'=Named()"]


def test_the_header_passes_the_guard_too():
    assert csv_text(["=Head", "Name"], [["@x", 1]]) == "\ufeff'=Head;Name\r\n'@x;1\r\n"
    out = io.BytesIO()
    write_xlsx(out, [Sheet("S", ["=Head"], [["+1+1", -2]], styled=True)])
    sheet = openpyxl.load_workbook(out)["S"]
    cells_written = [(sheet[at].value, sheet[at].data_type) for at in ("A1", "A2", "B2")]
    assert cells_written == [("'=Head", "s"), ("'+1+1", "s"), (-2, "n")]
    assert sheet.freeze_panes == "A2" and sheet["A1"].font.bold


def test_a_german_csv_writes_decimals_with_a_comma_and_keeps_the_guard():
    rows = [[7.5, Decimal("12.25"), 3, "1.5", "-2.5", None]]
    assert csv_text(["a"], rows).splitlines()[1] == "7.5;12.25;3;1.5;'-2.5;"
    for language in ("de", "de-at"):
        assert csv_text(["a"], rows, language=language).splitlines()[1] == "7,5;12,25;3;1.5;'-2.5;"
    assert csv_text(["a"], [[-0.5]], language="de").splitlines()[1] == "-0,5"  # a number, never a formula
