"""Uploaded lists (players, paper sheets): read the posted file and say what happened.

An import is all or nothing by default: the file's problem, or every bad row with its row
number, is shown and nothing is written; otherwise one line says what was imported. The
players' list offers to import its valid rows and skip the others (``valid``, ``skipped``
on its result): the skipped rows are then listed with their row numbers and reasons.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.core.files.uploadedfile import UploadedFile
from django.http import HttpRequest
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from .spreadsheets import SpreadsheetError

#: Row problems shown at once; the rest are counted.
SHOWN_ERRORS = 30


def report_row_errors(request: HttpRequest, errors: list[tuple[int, str]], valid: int = 0) -> None:
    """Nothing was imported: say so, and which rows are wrong (the first few of them);
    with ``valid`` rows the import could take, offer to take them and skip the others."""
    messages.error(
        request,
        ngettext(
            "Nothing was imported: %(n)s problem. Correct the file and upload it again.",
            "Nothing was imported: %(n)s problems. Correct the file and upload it again.",
            len(errors),
        )
        % {"n": len(errors)},
    )
    if valid:
        messages.warning(
            request,
            ngettext(
                "Or tick “import the valid rows, skip the others” and upload it again: %(n)s row is valid.",
                "Or tick “import the valid rows, skip the others” and upload it again: %(n)s rows are valid.",
                valid,
            )
            % {"n": valid},
        )
    _list_rows(request, errors, messages.error)


def _list_rows(request: HttpRequest, rows: list[tuple[int, str]], say) -> None:
    for row, problem in rows[:SHOWN_ERRORS]:
        say(request, _("Row %(row)s: %(problem)s") % {"row": row, "problem": problem})
    if len(rows) > SHOWN_ERRORS:
        more = len(rows) - SHOWN_ERRORS
        say(request, ngettext("... and %(n)s more problem.", "... and %(n)s more problems.", more) % {"n": more})


def import_upload(request: HttpRequest, read: Callable[[UploadedFile], Any], done: Callable[[Any], str]) -> None:
    """Import the posted file with ``read`` (an import answering ``.errors``) and say what happened:
    no file, the file's problem, every bad row, or ``done(result)``."""
    upload = request.FILES.get("file")
    if upload is None:
        messages.error(request, _("Choose a CSV or XLSX file to upload."))
        return
    try:
        result = read(upload)
    except SpreadsheetError as error:
        messages.error(request, _("Nothing was imported: %(error)s") % {"error": error})
        return
    if result.errors:
        report_row_errors(request, result.errors, getattr(result, "valid", 0))
        return
    messages.success(request, done(result))
    if skipped := getattr(result, "skipped", None):
        messages.warning(
            request,
            ngettext(
                "%(n)s row was skipped; correct it and import it alone:",
                "%(n)s rows were skipped; correct them and import them alone:",
                len(skipped),
            )
            % {"n": len(skipped)},
        )
        _list_rows(request, skipped, messages.warning)
