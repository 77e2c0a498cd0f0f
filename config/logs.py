"""The error log: a refusal is one line, a server error keeps its traceback.

Django logs every answer of 400 and up on ``django.request``, a 403 from
PermissionDenied (a director opening another's tournament) with the exception's whole
traceback: 3.8 MB for 3,196 refusals in the hostile review. A refusal is the office
working as meant, so its record keeps its one line (status, path) and loses the
traceback; a 500 keeps it, for whoever mends the bug.
"""

from __future__ import annotations

import logging


class OneLineRefusals(logging.Filter):
    """On ``django.request``: drop the traceback of any record of an answer below 500."""

    def filter(self, record: logging.LogRecord) -> bool:
        status = getattr(record, "status_code", None)
        if status is not None and status < 500:
            record.exc_info = None
            record.exc_text = None
        return True
