"""Hostile XLSX workbooks, built by hand (zipfile and written-out XML), no fixture files.

The one sheet is called "Tournament", so that a tournament file import reads it too.

Each builder returns the bytes of a workbook that a spreadsheet program would never
save but an attacker (or a broken tool) can: bombs that blow up when parsed, XML that
is truncated or malformed, and entity tricks. :data:`HOSTILE` names every case; the
tests feed each one to both upload forms and to the tournament file import.
"""

from __future__ import annotations

import functools
import io
import zipfile
from dataclasses import dataclass

NS = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"'
MB = 2**20
REL_NS = 'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"'

CONTENT_TYPES = """<?xml version="1.0" encoding="UTF-8"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">
<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>
<Default Extension="xml" ContentType="application/xml"/>
<Override PartName="/xl/workbook.xml"
 ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>
<Override PartName="/xl/worksheets/sheet1.xml"
 ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>
<Override PartName="/xl/sharedStrings.xml"
 ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>
</Types>"""
ROOT_RELS = """<?xml version="1.0" encoding="UTF-8"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">
<Relationship Id="rId1" Target="xl/workbook.xml"
 Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument"/>
</Relationships>"""
WORKBOOK = f"""<?xml version="1.0" encoding="UTF-8"?>
<workbook {NS} {REL_NS}><sheets><sheet name="Tournament" sheetId="1" r:id="rId1"/></sheets></workbook>"""
WORKBOOK_RELS = """<?xml version="1.0" encoding="UTF-8"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">
<Relationship Id="rId1" Target="worksheets/sheet1.xml"
 Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet"/>
<Relationship Id="rId2" Target="sharedStrings.xml"
 Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings"/>
</Relationships>"""


def inline(ref: str, text: str) -> str:
    return f'<c r="{ref}" t="inlineStr"><is><t>{text}</t></is></c>'


#: A valid player list's rows: the header and one player.
PLAYER_ROWS = f'<row r="1">{inline("A1", "Name")}</row><row r="2">{inline("A2", "Anna Sommer")}</row>'


def sheet_xml(rows: str = PLAYER_ROWS, *, dimension: str | None = "A1:A2", prolog: str = "") -> str:
    stated = f'<dimension ref="{dimension}"/>' if dimension else ""
    return (
        f'<?xml version="1.0" encoding="UTF-8"?>{prolog}<worksheet {NS}>{stated}'
        f"<sheetData>{rows}</sheetData></worksheet>"
    )


def shared_strings(strings: list[str]) -> str:
    items = "".join(f"<si><t>{s}</t></si>" for s in strings)
    return f'<?xml version="1.0" encoding="UTF-8"?><sst {NS} count="{len(strings)}">{items}</sst>'


def workbook(sheet: str | bytes | None = None, *, strings: str | bytes | None = None, extra=None) -> bytes:
    """An XLSX of one sheet; ``extra`` adds or replaces members ({name: text, bytes or Repeated})."""
    members = {
        "[Content_Types].xml": CONTENT_TYPES,
        "_rels/.rels": ROOT_RELS,
        "xl/workbook.xml": WORKBOOK,
        "xl/_rels/workbook.xml.rels": WORKBOOK_RELS,
        "xl/worksheets/sheet1.xml": sheet_xml() if sheet is None else sheet,
        "xl/sharedStrings.xml": shared_strings([]) if strings is None else strings,
        **(extra or {}),
    }
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        for name, content in members.items():
            if isinstance(content, Repeated):
                with archive.open(name, "w") as member:  # streamed: never held whole
                    member.write(content.head)
                    for _ in range(content.times):
                        member.write(content.chunk)
                    member.write(content.tail)
            else:
                archive.writestr(name, content.encode() if isinstance(content, str) else content)
    return out.getvalue()


@dataclass(frozen=True)
class Repeated:
    """A member's XML written as ``head``, ``chunk`` ``times`` over, then ``tail``."""

    head: bytes
    chunk: bytes
    times: int
    tail: bytes


def dimension_bomb() -> bytes:
    """1.8 KB declaring A1:XFD5002: read as declared, 82 million cells (700 MB)."""
    rows = PLAYER_ROWS + f'<row r="5002">{inline("A5002", "Zoe Winter")}</row>'
    return workbook(sheet_xml(rows, dimension="A1:XFD5002"))


def wide_rows() -> bytes:
    """Rows whose last cell sits in column XFD: each row 16,384 cells wide."""
    rows = PLAYER_ROWS + "".join(f'<row r="{r}"><c r="XFD{r}"><v>1</v></c></row>' for r in range(3, 5003))
    return workbook(sheet_xml(rows, dimension=None))


def far_rows() -> bytes:
    """A value in row 1,048,576: read naively, a million empty rows come before it."""
    rows = PLAYER_ROWS + f'<row r="1048576">{inline("A1048576", "Zoe")}</row>'
    return workbook(sheet_xml(rows, dimension=None))


def too_many_columns() -> bytes:
    row = "".join(inline(f"{letter}1", "Name") for letter in _letters(80))
    return workbook(sheet_xml(f'<row r="1">{row}</row>', dimension=None))


def _letters(count: int) -> list[str]:
    from openpyxl.utils import get_column_letter

    return [get_column_letter(i) for i in range(1, count + 1)]


def _sheet_parts(rows: str = PLAYER_ROWS) -> tuple[bytes, bytes]:
    head, _, tail = sheet_xml(rows).partition("</sheetData>")
    return head.encode(), ("</sheetData>" + tail).encode()


def shared_strings_bomb() -> bytes:
    """About 250 KB on disk, 100 MB of tiny shared strings (1.25 GB once parsed)."""
    head = f'<?xml version="1.0" encoding="UTF-8"?><sst {NS}>'.encode()
    sheet = sheet_xml('<row r="1"><c r="A1" t="s"><v>0</v></c></row>')
    return workbook(sheet, strings=Repeated(head, b"<si><t>x</t></si>" * 100_000, 60, b"</sst>"))


def many_shared_strings() -> bytes:
    """12 MB of distinct shared strings that compress only a few times: over the strings' cap."""
    head = f'<?xml version="1.0" encoding="UTF-8"?><sst {NS}>'.encode()
    body = "".join(f"<si><t>{i:x}{i * 7919 % 99991:x}</t></si>" for i in range(500_000)).encode()
    return workbook(strings=head + body + b"</sst>")


def deflate_bomb() -> bytes:
    """A sheet of 300 MB of blanks that deflate to 300 KB."""
    head, tail = _sheet_parts()
    return workbook(Repeated(head, b" " * MB, 300, tail))


def compression_ratio() -> bytes:
    """Under the size caps, but 20 MB of blanks compressed a thousand times."""
    head, tail = _sheet_parts()
    return workbook(Repeated(head, b" " * MB, 20, tail))


def lying_sizes() -> bytes:
    """The sheet's declared uncompressed size says 1 KB, its data inflates to 4 MB."""
    data = bytearray(workbook(sheet_xml().encode() + b" " * 4_000_000))
    name = b"xl/worksheets/sheet1.xml"
    small = (1024).to_bytes(4, "little")
    at = data.find(b"PK\x03\x04" + b"")
    while at != -1:  # the local header and the central directory both state the size
        if data[at : at + 4] == b"PK\x03\x04" and data[at + 30 : at + 30 + len(name)] == name:
            data[at + 22 : at + 26] = small
        if data[at : at + 4] == b"PK\x01\x02" and data[at + 46 : at + 46 + len(name)] == name:
            data[at + 24 : at + 28] = small
        at = data.find(b"PK", at + 1)
    return bytes(data)


def truncated_xml() -> bytes:
    xml = sheet_xml()
    return workbook(xml[: xml.index("Anna") + 2])


def bad_value() -> bytes:
    """A number cell whose <v> is not a number."""
    return workbook(sheet_xml(f'<row r="1">{inline("A1", "Name")}</row><row r="2"><c r="A2"><v>zwölf</v></c></row>'))


def bad_date() -> bytes:
    return workbook(
        sheet_xml(f'<row r="1">{inline("A1", "Name")}</row><row r="2"><c r="A2" t="d"><v>gestern</v></c></row>')
    )


def bad_cell_reference() -> bytes:
    return workbook(sheet_xml(f'<row r="1">{inline("A1", "Name")}</row><row r="2">{inline("1A", "Anna")}</row>'))


def bad_row_number() -> bytes:
    return workbook(sheet_xml(f'<row r="1">{inline("A1", "Name")}</row><row r="zwei">{inline("A2", "Anna")}</row>'))


def bad_shared_string_index() -> bytes:
    rows = f'<row r="1">{inline("A1", "Name")}</row><row r="2"><c r="A2" t="s"><v>99</v></c></row>'
    return workbook(sheet_xml(rows))


def billion_laughs() -> bytes:
    entities = '<!ENTITY a0 "ha">' + "".join(f'<!ENTITY a{i} "{f"&a{i - 1};" * 10}">' for i in range(1, 10))
    rows = f'<row r="1">{inline("A1", "Name")}</row><row r="2">{inline("A2", "&a9;")}</row>'
    return workbook(sheet_xml(rows, prolog=f"<!DOCTYPE worksheet [{entities}]>"))


def external_entity() -> bytes:
    rows = f'<row r="1">{inline("A1", "Name")}</row><row r="2">{inline("A2", "&secret;")}</row>'
    return workbook(sheet_xml(rows, prolog='<!DOCTYPE worksheet [<!ENTITY secret SYSTEM "file:///etc/passwd">]>'))


def utf16_sheet() -> bytes:
    """The same sheet in UTF-16: XML allows it, and it hides a DOCTYPE from a byte search."""
    xml = sheet_xml(prolog='<!DOCTYPE worksheet [<!ENTITY e "x">]>').replace("UTF-8", "UTF-16")
    return workbook(xml.encode("utf-16"))


def missing_sheet() -> bytes:
    """The workbook names a sheet whose part is not in the archive."""
    out = io.BytesIO(workbook())
    with zipfile.ZipFile(out) as source:
        members = {n: source.read(n) for n in source.namelist() if n != "xl/worksheets/sheet1.xml"}
    target = io.BytesIO()
    with zipfile.ZipFile(target, "w") as archive:
        for name, content in members.items():
            archive.writestr(name, content)
    return target.getvalue()


def many_members() -> bytes:
    return workbook(extra={f"xl/media/image{i}.xml": "" for i in range(3000)})


#: Every hostile case by name, for parametrised tests (each built once per test run).
HOSTILE = {
    "dimension bomb": dimension_bomb,
    "wide rows": wide_rows,
    "far rows": far_rows,
    "too many columns": too_many_columns,
    "shared strings bomb": shared_strings_bomb,
    "many shared strings": many_shared_strings,
    "deflate bomb": deflate_bomb,
    "compression ratio": compression_ratio,
    "lying sizes": lying_sizes,
    "truncated xml": truncated_xml,
    "bad value": bad_value,
    "bad date": bad_date,
    "bad cell reference": bad_cell_reference,
    "bad row number": bad_row_number,
    "bad shared string index": bad_shared_string_index,
    "billion laughs": billion_laughs,
    "external entity": external_entity,
    "utf-16 sheet": utf16_sheet,
    "missing sheet": missing_sheet,
    "many members": many_members,
}
HOSTILE = {name: functools.cache(build) for name, build in HOSTILE.items()}
