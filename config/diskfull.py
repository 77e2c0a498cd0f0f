"""A full disk said as such: every request whose write failed for lack of space gets
507 Insufficient Storage and one sentence, and the log one line (no traceback).

The table link's entry (``table:sheet``) answers "The office could not store it: its
disk is full. The deal stays on this phone."; ``static/js/entry.js`` keeps the deal in
its queue and sends it again, as it does when the office cannot be reached. Every other
page says what the director can do: free space and try again. Nothing was stored: the
write failed inside its transaction, which was rolled back whole.

The error is recognised by ``core.diskspace`` (SQLite's "database or disk is full",
the system's ENOSPC, PostgreSQL's disk_full) at whatever point the view wrote.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.utils.translation import gettext as _

from core import diskspace

logger = logging.getLogger("office.diskfull")
#: The status a phone tells from "refused" (4xx) and "unreachable" (502-504).
INSUFFICIENT_STORAGE = 507


class DiskFull:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not diskspace.is_full(exception):
            return None  # Django's own handling: the 500 page and the traceback in the log
        match = getattr(request, "resolver_match", None)
        view = match.view_name if match else "?"
        # The path is left out: a table link's path is its capability (config.access).
        logger.warning("The disk is full: %s %s stored nothing (%s).", request.method, view, exception)
        if view == "table:sheet":
            message = _("The office could not store it: its disk is full. The deal stays on this phone.")
        else:
            message = _("The office's disk is full: free space (delete old files) and try again.")
        # Without the request: its context processors would read the database once more.
        page = render_to_string("disk_full.html", {"message": message})
        return HttpResponse(page, status=INSUFFICIENT_STORAGE)
