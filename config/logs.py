"""The error log: a refusal is one line, a server error keeps its traceback.

Django logs every answer of 400 and up on ``django.request``, a 403 from
PermissionDenied (a director opening another's tournament) with the exception's whole
traceback: 3.8 MB for 3,196 refusals in the hostile review. A refusal is the office
working as meant, so its record keeps its one line (status, path) and loses the
traceback; a 500 keeps it, for whoever mends the bug.

Django logs its refusals on more than one logger: ``django.request`` (403, 404, 405),
``django.security.csrf`` and ``django.security.<the exception's class>`` for a
suspicious request (a foreign Host header, too large a body, too many fields: 400).
A logger's filter sees only what is logged on that logger itself, not on its children,
so the filter sits on each of them (:func:`refusal_loggers`).
"""

from __future__ import annotations

import logging

from django.core.exceptions import SuspiciousOperation


class OneLineRefusals(logging.Filter):
    """On ``django.request``: drop the traceback of any record of an answer below 500, and
    a table link's token from the path it names (config.access: a token opens a table)."""

    def filter(self, record: logging.LogRecord) -> bool:
        status = getattr(record, "status_code", None)
        if status is not None and status < 500:
            record.exc_info = None
            record.exc_text = None
        if isinstance(record.args, tuple) and any(isinstance(a, str) and a.startswith("/s/") for a in record.args):
            from .access import loggable_path

            record.args = tuple(loggable_path(a) if isinstance(a, str) else a for a in record.args)
        return True


def _subclasses(cls: type) -> set[type]:
    found = set()
    for sub in cls.__subclasses__():
        found |= {sub, *_subclasses(sub)}
    return found


def refusal_loggers() -> list[str]:
    """Every logger Django writes a refusal (a 4xx) on, for the settings' LOGGING."""
    import django.contrib.sessions.exceptions  # noqa: F401 - its SuspiciousSession counts too

    names = {f"django.security.{cls.__name__}" for cls in {SuspiciousOperation, *_subclasses(SuspiciousOperation)}}
    # The admin's own (django.contrib.admin.exceptions, not importable before the apps are).
    names |= {"django.security.DisallowedModelAdminLookup", "django.security.DisallowedModelAdminToField"}
    return ["django.request", "django.security.csrf", *sorted(names)]
