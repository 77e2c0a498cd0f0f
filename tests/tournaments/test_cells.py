"""tournaments.cells: what every CSV/XLSX writer does to a cell, and what the import undoes."""

from __future__ import annotations

import datetime

import pytest

from tournaments.cells import FORMULA_STARTS, cells, text, typed


@pytest.mark.parametrize("start", FORMULA_STARTS)
def test_formula_like_text_gets_an_apostrophe_and_comes_back(start):
    assert text(start + "1+1") == "'" + start + "1+1"
    assert typed(text(start + "x")) == start + "x"


def test_other_cells_stay_as_they_are():
    day = datetime.date(2026, 11, 23)
    assert cells(["Anna", "", None, -3, 2.5, day, True, "'=x"]) == ["Anna", None, None, -3, 2.5, day, True, "'=x"]
    assert cells(cells(["=1"])) == ["'=1"]  # once is enough: the apostrophe starts no formula
    assert typed("'Anna") == "'Anna" and typed(None) == "" and typed(" 12 ") == "12"
