"""The hall asks the league server for its match-day package (standard library only, as
:mod:`leagues.sending` publishes): ``GET .../league/api/package/`` with the host's token.

The answer is read with a cap (:data:`packages.schema.LIMITS`): a larger one is refused
before it is held whole. Nothing is written here.
"""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.parse
import urllib.request

from django.utils.translation import gettext as _

from .schema import LIMITS, PackageError


class NoConnection(PackageError):
    """The league server did not answer: import the package's file, or try again."""


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    """A redirect is answered as what it is (urllib would send the host's token along to
    wherever it points)."""

    def redirect_request(self, req, fp, code, msg, headers, newurl):
        return None


_OPENER = urllib.request.build_opener(_NoRedirects)


def fetch(url: str, token: str, *, key: str = "", timeout: float = 30) -> bytes:
    """The package's bytes from the server's endpoint (``key``: one match day of the host's)."""
    if urllib.parse.urlsplit(url).scheme not in ("http", "https"):
        raise PackageError(_("url: only an http:// or https:// address of the league server"))
    if key:
        url = f"{url}{'&' if '?' in url else '?'}{urllib.parse.urlencode({'matchday': key})}"
    request = urllib.request.Request(url, headers={"Authorization": f"Token {token}", "Accept": "application/json"})
    try:
        with _OPENER.open(request, timeout=timeout) as response:
            content = _read(response, LIMITS.size + 1, time.monotonic() + timeout)
    except urllib.error.HTTPError as error:
        raise PackageError(
            _("url: the league server refused (%(status)s): %(reason)s")
            % {"status": error.code, "reason": _reason(error.read(4096))}
        ) from None
    except (urllib.error.URLError, TimeoutError, ConnectionError, ValueError) as error:
        reason = getattr(error, "reason", error)
        raise NoConnection(
            _("url: no connection to %(url)s (%(reason)s); import the package's file instead, or try again")
            % {"url": url, "reason": reason}
        ) from None
    if len(content) > LIMITS.size:
        raise PackageError(_("url: the answer is larger than %(kb)s KB") % {"kb": LIMITS.size // 1024})
    return content


def _read(response, most: int, deadline: float) -> bytes:
    """At most ``most`` bytes of the answer, all of them before ``deadline``: the socket's
    timeout bounds each read only, and a server trickling a byte at a time would hold the
    worker for as long as it liked."""
    chunks: list[bytes] = []
    held = 0
    while held < most:
        if time.monotonic() > deadline:
            raise TimeoutError("the answer took too long")
        chunk = response.read1(min(64 * 1024, most - held))
        if not chunk:
            break
        chunks.append(chunk)
        held += len(chunk)
    return b"".join(chunks)


def _reason(raw: bytes) -> str:
    """The server's own reason (its JSON ``error``); of any other answer nothing is shown
    (the address may be no league server's, and its page is none of the office's business)."""
    try:
        answer = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        answer = None
    if isinstance(answer, dict) and isinstance(answer.get("error"), str):
        return answer["error"][:300]
    return _("no answer of a league server")
