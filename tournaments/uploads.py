"""Uploaded lists (players, paper sheets): the file from the form, and row problems as messages."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest
from django.utils.translation import gettext as _

#: Row problems shown at once; the rest are counted.
SHOWN_ERRORS = 30


def report_row_errors(request: HttpRequest, errors: list[tuple[int, str]]) -> None:
    """Nothing was imported: say so, and which rows are wrong (the first few of them)."""
    messages.error(
        request, _("Nothing was imported: %(n)s problems. Correct the file and upload it again.") % {"n": len(errors)}
    )
    for row, problem in errors[:SHOWN_ERRORS]:
        messages.error(request, _("Row %(row)s: %(problem)s") % {"row": row, "problem": problem})
    if len(errors) > SHOWN_ERRORS:
        messages.error(request, _("... and %(n)s more.") % {"n": len(errors) - SHOWN_ERRORS})


def uploaded_file(request: HttpRequest):
    upload = request.FILES.get("file")
    if upload is None:
        messages.error(request, _("Choose a CSV or XLSX file to upload."))
    return upload
