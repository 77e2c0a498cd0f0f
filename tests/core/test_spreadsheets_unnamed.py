"""Columns without a heading (core.spreadsheets): named by their position where a cell below
holds data, whatever kind of value it is, and found without looking at every empty cell."""

from __future__ import annotations

import io

from core.spreadsheets import _unnamed_columns, read_table

COLUMNS = {"name": ["Name"], "club": ["Verein"]}


def test_a_column_without_heading_is_named_where_some_row_has_data_in_it():
    rows = [["Name", None, "Verein", "", None], ["Anna", None, "Kiel", None, None], ["Bert", " ", "", "x", None]]
    assert _unnamed_columns(rows) == ["column 4 (no heading)"]


def test_a_zero_from_a_workbook_is_data_a_false_or_blank_is_not():
    rows = [["Name"], ["Anna", 0, False, "", None, 0.0], ["Bert", None, False, None, None, None]]
    assert _unnamed_columns(rows) == ["column 2 (no heading)", "column 6 (no heading)"]


def test_data_beyond_the_heading_s_width_and_far_down_is_found():
    rows = [["Name", "Verein"], *(["Anna", "Kiel"] for _ in range(50)), ["Bert", "Kiel", *[""] * 300, "late"]]
    assert _unnamed_columns(rows) == ["column 303 (no heading)"]


def test_thousands_of_empty_columns_are_read_as_none_left_out():
    text = "Name,Verein\nAnna,Kiel" + "," * 3000 + "\n" + ("Bert,Kiel" + "," * 3000 + "\n") * 200
    ignored: list[str] = []
    rows = read_table(io.BytesIO(text.encode()), "x.csv", COLUMNS, ["name"], ignored=ignored)
    assert [row.get("name") for row in rows][:2] == ["Anna", "Bert"] and ignored == []
