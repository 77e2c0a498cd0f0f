"""Uploaded lists (players, paper sheets): read the posted file and say what happened.

Every import is all or nothing: the file's problem, or every bad row with its row number,
is shown and nothing is written; otherwise one line says what was imported.
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


def report_row_errors(request: HttpRequest, errors: list[tuple[int, str]]) -> None:
    """Nothing was imported: say so, and which rows are wrong (the first few of them)."""
    messages.error(
        request,
        ngettext(
            "Nothing was imported: %(n)s problem. Correct the file and upload it again.",
            "Nothing was imported: %(n)s problems. Correct the file and upload it again.",
            len(errors),
        )
        % {"n": len(errors)},
    )
    for row, problem in errors[:SHOWN_ERRORS]:
        messages.error(request, _("Row %(row)s: %(problem)s") % {"row": row, "problem": problem})
    if len(errors) > SHOWN_ERRORS:
        more = len(errors) - SHOWN_ERRORS
        messages.error(
            request, ngettext("... and %(n)s more problem.", "... and %(n)s more problems.", more) % {"n": more}
        )


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
        report_row_errors(request, result.errors)
    else:
        messages.success(request, done(result))
