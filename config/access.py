"""The access log: one line per request, on the logger ``office.access`` (to stderr).

``2026-11-26 21:05:03 192.168.178.40 POST /s/#3f9a1c2e/ 200 41ms``: time, client,
method, path, status, milliseconds. On by default when the office serves (DEBUG off),
``ACCESS_LOG=0`` turns it off, ``ACCESS_LOG=1`` on while developing.

A table link's path is its capability: whoever reads ``/s/<token>/`` can enter deals
at that table. Logs are copied, mailed and pasted into bug reports, so the token never
appears in one: it is replaced by ``#`` and a short fingerprint (the first 8 hex digits
of its SHA-256), which still tells one table's requests from another's but opens
nothing. A player's own page (``/me/<token>/``, players) is a capability URL too and is
logged the same way. The query string (a search for a player's name) is left out as well.
"""

from __future__ import annotations

import hashlib
import logging
import re
import time
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

from accounts.throttle import client_ip

logger = logging.getLogger("office.access")
TABLE_LINK = re.compile(r"^/s/([^/]+)")
PLAYER_LINK = re.compile(r"^/me/(?!find/)([^/]+)")


def token_fingerprint(token: str) -> str:
    return "#" + hashlib.sha256(token.encode()).hexdigest()[:8]


def loggable_path(path: str) -> str:
    """``path`` without a table link's or a player's page's token (its fingerprint instead)."""
    path = TABLE_LINK.sub(lambda m: f"/s/{token_fingerprint(m.group(1))}", path, count=1)
    return PLAYER_LINK.sub(lambda m: f"/me/{token_fingerprint(m.group(1))}", path, count=1)


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
                request.method,
                loggable_path(request.path),
                response.status_code,
                round(elapsed),
            )
        return response
