"""The access log: one line per request, on the logger ``office.access`` (to stderr).

``2026-11-26 21:05:03 192.168.178.40 POST /s/#3f9a1c2e/ 200 41ms``: time, client,
method, path, status, milliseconds. On by default when the office serves (DEBUG off),
``ACCESS_LOG=0`` turns it off, ``ACCESS_LOG=1`` on while developing.

A table link's path is its capability: whoever reads ``/s/<token>/`` can enter deals
at that table. Logs are copied, mailed and pasted into bug reports, so the token never
appears in one: it is replaced by ``#`` and a short fingerprint (the first 8 hex digits
of its SHA-256), which still tells one table's requests from another's but opens
nothing. A player's own page (``/me/<token>/``, players) is a capability URL too and is
logged the same way (config.logs.without_tokens, which every handler's filter applies to
every record as well, with the control characters a client put into a path escaped).
The query string (a search for a player's name) is left out as well.

The answers given below Django (the spectators' "busy" page and their kept copies,
config.admission; a page that waited too long, office.dispatch) are logged too, by
:func:`log_answer`, so the log holds every answer the office gave.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from types import SimpleNamespace

from django.http import HttpRequest, HttpResponse

from accounts.throttle import client_ip

from .logs import scrub, token_fingerprint

logger = logging.getLogger("office.access")

__all__ = ["AccessLog", "answered_here", "log_answer", "loggable_path", "token_fingerprint"]


def loggable_path(path: str) -> str:
    """``path`` as the log may show it: no capability (its fingerprint instead), one line."""
    return scrub(path)


def log_answer(environ: dict, status: int | str, started: float) -> None:
    """One access line for an answer given below Django (WSGI ``environ``, the status as a
    number or a status line, ``started`` from time.perf_counter())."""
    if not logger.isEnabledFor(logging.INFO):
        return
    code = int(str(status).split(" ", 1)[0])
    path = environ.get("PATH_INFO", "").encode("latin-1", "replace").decode("utf-8", "replace")
    logger.info(
        "%s %s %s %s %dms",
        client_ip(SimpleNamespace(META=environ)) or "-",
        scrub(str(environ.get("REQUEST_METHOD", "-"))),
        loggable_path(path),
        code,
        round((time.perf_counter() - started) * 1000),
    )


def answered_here(environ: dict, start_response: Callable[..., object]) -> Callable[..., object]:
    """``start_response`` that also writes the access line: for a WSGI wrapper answering
    without Django (whose answers the AccessLog middleware never sees)."""
    started = time.perf_counter()

    def start(status: str, headers: list[tuple[str, str]], exc_info=None) -> object:
        log_answer(environ, status, started)
        return start_response(status, headers, exc_info) if exc_info else start_response(status, headers)

    return start


class AccessLog:
    """Middleware, first in the chain: it times the whole answer, refusals included."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        started = time.perf_counter()
        response = self.get_response(request)
        if logger.isEnabledFor(logging.INFO):
            elapsed = (time.perf_counter() - started) * 1000
            logger.info(
                "%s %s %s %s %dms",
                client_ip(request) or "-",
                scrub(str(request.method)),
                loggable_path(request.path),
                response.status_code,
                round(elapsed),
            )
        return response
