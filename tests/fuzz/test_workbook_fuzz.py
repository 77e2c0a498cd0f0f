"""Workbooks whose XML parts are garbled inside a sound archive: the parser is reached.

tests/fuzz/test_upload_fuzz.py garbles a workbook's bytes, which mostly breaks the zip
itself; here each part is cut, spliced or sprinkled with markup and zipped again, so
openpyxl parses what it gets. Whatever comes out, core.workbooks answers with
rows or a SpreadsheetError, never anything else (tests/hostile_xlsx.py has the named
cases and their memory figures).
"""

from __future__ import annotations

import io

from hypothesis import event, given
from hypothesis import strategies as st

from core.spreadsheets import SpreadsheetError, raw_rows
from tests import hostile_xlsx

from .strategies import FUZZ

SNIPPETS = [
    "<",
    ">",
    "&",
    "&amp;",
    "&#0;",
    "&#xD800;",
    "]]>",
    '<c r="A0"><v>1</v></c>',
    '<c r="XFD1048577"><v>1</v></c>',
    '<c t="s"><v>-1</v></c>',
    '<c t="b"><v>2</v></c>',
    '<c t="d"><v>2026-13-45</v></c>',
    '<c t="e"><v>#DIV/0!</v></c>',
    '<c s="999"><v>1e400</v></c>',
    '<row r="-1">',
    '<row r="1e18"></row>',
    '<dimension ref="A1:ZZZZ9"/>',
    "<!-- x -->",
    "<?pi x?>",
    "\u202e",
    "\x00",
]
PARTS = ["xl/worksheets/sheet1.xml", "xl/sharedStrings.xml", "xl/workbook.xml", "[Content_Types].xml"]
SHEET = hostile_xlsx.sheet_xml(
    f'<row r="1">{hostile_xlsx.inline("A1", "Name")}<c r="B1" t="s"><v>0</v></c></row>'
    f'<row r="2">{hostile_xlsx.inline("A2", "Anna")}<c r="B2"><v>7</v></c></row>'
)
STRINGS = hostile_xlsx.shared_strings(["Verein"])


@st.composite
def garbled(draw) -> bytes:
    part = draw(st.sampled_from(PARTS))
    original = {"xl/worksheets/sheet1.xml": SHEET, "xl/sharedStrings.xml": STRINGS}.get(part)
    if original is None:
        original = hostile_xlsx.WORKBOOK if part == "xl/workbook.xml" else hostile_xlsx.CONTENT_TYPES
    text = original
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(0, len(text)))
        kind = draw(st.sampled_from(["cut", "insert", "replace"]))
        if kind == "cut":
            text = text[:at]
        elif kind == "insert":
            text = text[:at] + draw(st.sampled_from(SNIPPETS)) + text[at:]
        else:
            text = text[:at] + draw(st.text(max_size=8)) + text[at + draw(st.integers(0, 8)) :]
    event(f"garbled {part}")
    data = text.encode("utf-8", "surrogatepass")
    if part == "xl/worksheets/sheet1.xml":
        return hostile_xlsx.workbook(data, strings=STRINGS)
    if part == "xl/sharedStrings.xml":
        return hostile_xlsx.workbook(SHEET, strings=data)
    return hostile_xlsx.workbook(SHEET, strings=STRINGS, extra={part: data})


@FUZZ
@given(data=garbled())
def test_a_garbled_part_is_answered_with_rows_or_a_message(data):
    try:
        rows = raw_rows(io.BytesIO(data), "list.xlsx")
    except SpreadsheetError as error:
        event("refused")
        assert str(error)
    else:
        event("read")
        assert all(isinstance(row, list) for row in rows)
