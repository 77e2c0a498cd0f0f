"""Opening an XLSX workbook defensively: the archive is checked before openpyxl parses it,
and the rows are read with caps.

An XLSX file is a zip archive of XML parts, and openpyxl trusts them: it pads every row
to the width the sheet declares (``A1:XFD5002`` is 82 million cells), keeps every
shared string in memory, and raises whatever Python raises for a part that is cut off
or malformed. So before openpyxl opens a file, :func:`check_archive` inflates every
member once as a stream (never held whole) and refuses

- more members, more inflated bytes in all or in one member, or a higher compression
  ratio than :class:`Limits` allow, by the sizes the archive declares and by the bytes
  it really inflates to (a damaged member fails its CRC check);
- a shared strings part larger than its own cap (openpyxl keeps every string);
- any document type declaration (``<!DOCTYPE``, ``<!ENTITY``: entity expansion and
  external entities), and any XML part not in UTF-8 (UTF-16 or a single-byte encoding
  would hide a declaration from this byte search).

:func:`rows` then reads a sheet without trusting its declared size, at most
``Limits.columns`` columns and up to a last row, and turns every error openpyxl raises
on the way into a :class:`WorkbookError`. Every message is for the person who uploaded
the file; nothing here writes anything.
"""

from __future__ import annotations

import re
import time
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from xml.etree import ElementTree

from django.utils.translation import gettext as _

MB = 2**20
#: Members smaller than this may be compressed at any ratio (a short repetitive part).
RATIO_FLOOR = MB
CHUNK = MB
SHARED_STRINGS_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"
CONTENT_TYPES = "[Content_Types].xml"
XML_SUFFIXES = (".xml", ".rels", ".vml")
#: Markup that only a document type declaration uses: XLSX parts never have one.
FORBIDDEN = (b"<!DOCTYPE", b"<!ENTITY")
_DECLARED_ENCODING = re.compile(rb"""^(?:\xef\xbb\xbf)?\s*<\?xml[^>]*?encoding\s*=\s*["']([^"']*)["']""")


class WorkbookError(ValueError):
    """The workbook cannot be read safely; the message says why, for the director."""


@dataclass(frozen=True)
class Limits:
    """What one workbook may hold. The defaults suit an upload (at most 5 MB on disk)."""

    members: int = 500
    unpacked: int = 48 * MB
    member: int = 32 * MB
    #: Inflated size / compressed size of one member above :data:`RATIO_FLOOR`.
    ratio: int = 200
    #: openpyxl holds every shared string (2 MB of them: about 14 MB and 2 s to parse);
    #: a list of 3,000 players has about 250 KB.
    shared_strings: int = 2 * MB
    columns: int = 64
    #: The last row :func:`rows` reads on a sheet (a spreadsheet program's 1,048,576).
    rows: int = 2**20
    #: CPU seconds (this thread's) from opening the workbook to the last row read; None:
    #: no budget. The sizes above bound the work; this stops what they let through slowly.
    seconds: float | None = None


#: Uploads through a form (a player list, a table's paper sheet).
UPLOADS = Limits()
#: A whole tournament's file (``manage.py import_tournament``): 100,000 games and more.
#: The office writes its strings inline; a file saved again by a spreadsheet program
#: shares them (names, clubs, contracts: a few hundred KB).
TOURNAMENT_FILES = Limits(unpacked=1536 * MB, member=1024 * MB, shared_strings=4 * MB)


def _megabytes(size: int) -> str:
    return f"{size / MB:.1f}"


def check_archive(source, limits: Limits = UPLOADS) -> None:
    """Refuse the archive (a path or a binary file) unless every member keeps ``limits``."""
    try:
        with zipfile.ZipFile(source) as archive:
            members = archive.infolist()
            if len(members) > limits.members:
                raise WorkbookError(
                    _("The workbook has %(n)s parts; at most %(max)s are read.")
                    % {"n": len(members), "max": limits.members}
                )
            declared = sum(member.file_size for member in members)
            if declared > limits.unpacked:
                raise _too_large(declared, limits.unpacked)
            names = {member.filename for member in members}
            strings = set()
            if CONTENT_TYPES in names:
                _check_member(archive, archive.getinfo(CONTENT_TYPES), limits, cap=MB)
                strings = _shared_strings_parts(archive.read(CONTENT_TYPES))
            unpacked = 0
            for member in members:
                cap = limits.shared_strings if member.filename in strings else limits.member
                unpacked += _check_member(archive, member, limits, cap=cap)
                if unpacked > limits.unpacked:
                    raise _too_large(unpacked, limits.unpacked)
    except WorkbookError:
        raise
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, OSError, RuntimeError, ValueError, LookupError):
        # A damaged archive (CRC, truncation), an encrypted or unsupported member.
        raise WorkbookError(_("The file is not a readable XLSX workbook.")) from None


def _too_large(size: int, limit: int) -> WorkbookError:
    return WorkbookError(
        _("The workbook unpacks to more than %(limit)s MB (at least %(size)s MB); it cannot be read.")
        % {"limit": _megabytes(limit), "size": _megabytes(size)}
    )


def _check_member(archive: zipfile.ZipFile, member: zipfile.ZipInfo, limits: Limits, *, cap: int) -> int:
    """Inflate one member as a stream; its size in bytes, or a :class:`WorkbookError`."""
    name = member.filename
    if member.file_size > cap:
        raise _member_too_large(name, member.file_size, cap)
    if member.file_size > RATIO_FLOOR and member.file_size > limits.ratio * max(member.compress_size, 1):
        raise WorkbookError(
            _("The part %(name)s of the workbook is compressed %(ratio)s times; at most %(max)s times is read.")
            % {"name": name, "ratio": member.file_size // max(member.compress_size, 1), "max": limits.ratio}
        )
    is_xml = name.lower().endswith(XML_SUFFIXES)
    size, tail = 0, b""
    with archive.open(member) as stream:
        while chunk := stream.read(CHUNK):
            size += len(chunk)
            if size > cap:
                raise _member_too_large(name, size, cap)
            if is_xml:
                _check_markup(name, tail + chunk, first=size == len(chunk))
                tail = chunk[-16:]
    return size


def _member_too_large(name: str, size: int, cap: int) -> WorkbookError:
    return WorkbookError(
        _("The part %(name)s of the workbook unpacks to %(size)s MB; at most %(max)s MB is read.")
        % {"name": name, "size": _megabytes(size), "max": _megabytes(cap)}
    )


def _check_markup(name: str, data: bytes, *, first: bool) -> None:
    if first:
        declared = _DECLARED_ENCODING.match(data)
        encoding = declared.group(1).decode("ascii", "replace").lower() if declared else "utf-8"
        if b"\x00" in data[:4] or encoding.replace("-", "").replace("_", "") != "utf8":
            raise WorkbookError(
                _("The part %(name)s of the workbook is not UTF-8 XML; save the file again as XLSX.") % {"name": name}
            )
    if b"\x00" in data or any(markup in data for markup in FORBIDDEN):
        raise WorkbookError(
            _(
                "The part %(name)s of the workbook declares a document type or holds NUL bytes, "
                "which spreadsheet programs never write; the file is refused."
            )
            % {"name": name}
        )


def _shared_strings_parts(content_types: bytes) -> set[str]:
    """The parts openpyxl reads as the shared strings table (by [Content_Types].xml)."""
    try:
        root = ElementTree.fromstring(content_types)
    except ElementTree.ParseError:
        raise WorkbookError(_("The file is not a readable XLSX workbook.")) from None
    return {
        element.get("PartName", "").lstrip("/")
        for element in root.iter()
        if element.tag.endswith("Override") and element.get("ContentType") == SHARED_STRINGS_TYPE
    }


def open_workbook(source, limits: Limits = UPLOADS):
    """The checked workbook in openpyxl's read-only mode, values only; close it after use.

    The workbook keeps ``limits`` and the CPU time it was opened at: :func:`rows` reads
    its sheets under them unless told otherwise.
    """
    from openpyxl import load_workbook

    started = time.thread_time()
    check_archive(source, limits)
    if hasattr(source, "seek"):
        source.seek(0)
    try:
        workbook = load_workbook(source, read_only=True, data_only=True)
    except Exception:  # openpyxl raises many kinds for a part it cannot read
        raise WorkbookError(_("The file is not a readable XLSX workbook.")) from None
    workbook.office_guard = (limits, started)
    return workbook


def worksheet(workbook, name: str | None = None):
    """The sheet called ``name``, or the first sheet; None when a named sheet is missing."""
    try:
        if name is not None:
            return workbook[name] if name in workbook.sheetnames else None
        if not workbook.sheetnames:
            raise WorkbookError(_("The workbook has no sheet."))
        return workbook.worksheets[0]
    except WorkbookError:
        raise
    except Exception:  # the sheet's part is missing or its dimension is malformed
        raise WorkbookError(_("The file is not a readable XLSX workbook.")) from None


def rows(
    sheet,
    *,
    last_row: int | None = None,
    limits: Limits | None = None,
    min_row: int = 1,
    value: Callable[[object], object] | None = None,
) -> Iterator[tuple[int, list]]:
    """``(row number, values)`` of every row up to ``last_row``, trailing blanks cut.

    ``value``: what to make of each cell (it gets the cell, e.g. to read its number
    format); by default the cell's value. ``limits``: by default those the workbook was
    opened with (:func:`open_workbook`), ``last_row`` their ``rows``.

    The size the sheet declares is ignored: rows end at their last value. A value in a
    later row or beyond ``limits.columns`` is refused, as is anything openpyxl cannot
    parse (a cut-off part, a number cell holding text, a bad cell reference ...).
    """
    from openpyxl.utils import get_column_letter

    title = getattr(sheet, "title", "")
    opened_with, started = getattr(getattr(sheet, "parent", None), "office_guard", (UPLOADS, None))
    limits = limits or opened_with
    last_row = limits.rows if last_row is None else last_row
    started = time.thread_time() if started is None else started
    sheet.reset_dimensions()
    cells = sheet.iter_rows(
        min_row=min_row, max_row=last_row + 1, max_col=limits.columns + 1, values_only=value is None
    )
    number = min_row - 1
    while True:
        try:
            values = next(cells, None)
        except Exception:  # openpyxl raises many kinds for a malformed part
            raise WorkbookError(
                _("The sheet %(sheet)s cannot be read after row %(row)s: the file is damaged.")
                % {"sheet": title, "row": number}
            ) from None
        if values is None:
            return
        if limits.seconds is not None and time.thread_time() - started > limits.seconds:
            raise WorkbookError(
                _("The workbook takes more than %(max)s s to read (sheet %(sheet)s, row %(row)s); it cannot be read.")
                % {"max": limits.seconds, "sheet": title, "row": number}
            )
        number += 1
        values = list(values) if value is None else [None if c is None else value(c) for c in values]
        while values and values[-1] is None:
            values.pop()
        if number > last_row and values:
            raise WorkbookError(
                _("The sheet %(sheet)s has values in row %(row)s; at most %(max)s rows are read.")
                % {"sheet": title, "row": number, "max": last_row}
            )
        if len(values) > limits.columns:
            raise WorkbookError(
                _("The sheet %(sheet)s has values in column %(column)s; at most %(max)s columns are read.")
                % {"sheet": title, "column": get_column_letter(len(values)), "max": limits.columns}
            )
        yield number, values
