"""Entries first under overload: spectators never queue in front of the phones' entries.

The public pages (``/p/``: the standings, the projector, the statistics) are what a
flood of spectators asks for at once, at the end of a series or when a draw is
published. A page computed for a spectator within ``SPECTATOR_FRESH_SECONDS`` (5 s) is
given as it is to the next ones, slot or no slot, and a page is computed by one request
at a time, the crowd meanwhile getting its last copy: 3,000 spectators reloading every
30 s cost one computation of each page every 5 s per process, not 100 a second (each
entry changes the standings, so every computation is a new one). Beyond that, each server
process lets at most ``SPECTATOR_SLOTS`` of their requests run at the same time,
whatever the server's threads; the rest never wait for a thread's turn behind Django:

- a spectator whose page was answered a moment ago (within ``BUSY_COPY_SECONDS``) gets
  that last computed page at once, from this process's memory (or 304 Not Modified
  when the browser holds it already);
- otherwise a small "busy, again in N s" page, 503 with ``Retry-After``, in the
  browser's language.

Everything else (the table links' entries, the director's pages) passes straight
through. The answers kept are only those every spectator may see: 200, no cookie set,
asked without a cookie but the language's and not by htmx (a fragment), keyed by the
page, its query and the browser's language. A logged-in browser (its page names the user,
holds the log-out form's CSRF token, and shows a director the standings not yet
published) never gets another's copy nor leaves its own.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable
from email.utils import formatdate
from html import escape

from django.conf import settings
from django.http.cookie import parse_cookie
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import trans_real

from .access import answered_here

#: The spectators' pages: the public standings, projector and statistics (config/urls.py).
SPECTATOR_PREFIX = "/p/"
#: At most this many answers kept per process, and none bigger than this.
KEPT_PAGES = 64
KEPT_BYTES = 2 * 1024 * 1024

StartResponse = Callable[..., object]


def is_spectator(environ: dict) -> bool:
    """Any request of a public page, whatever its method: OPTIONS is as safe as GET to
    Django (no CSRF check) and renders the whole page, so it takes a slot too."""
    return environ.get("PATH_INFO", "").startswith(SPECTATOR_PREFIX)


def cookies_of(environ: dict) -> dict[str, str]:
    """The request's cookies as Django reads them (the last of a name, quotes and spaces
    dropped): the copy's key must be the language Django answers in."""
    return parse_cookie(environ.get("HTTP_COOKIE", ""))


def personal(environ: dict) -> bool:
    """Whether the answer may be this browser's own: a session (logged in: the user's name,
    a CSRF token, a director's preview of unpublished standings) or an htmx request (the
    projector's board alone, ``Vary: HX-Request``)."""
    return "HTTP_HX_REQUEST" in environ or bool(cookies_of(environ).get(settings.SESSION_COOKIE_NAME))


def anonymous(environ: dict) -> bool:
    """Whether the answer is one every spectator may get: no cookie but the language's, not htmx."""
    return "HTTP_HX_REQUEST" not in environ and not set(cookies_of(environ)) - {settings.LANGUAGE_COOKIE_NAME}


def language_of(environ: dict) -> str:
    """The language Django's LocaleMiddleware would choose: the language cookie, else Accept-Language."""
    value = cookies_of(environ).get(settings.LANGUAGE_COOKIE_NAME)
    if value:
        try:
            return translation.get_supported_language_variant(value)
        except LookupError:
            pass
    for code, _quality in trans_real.parse_accept_lang_header(environ.get("HTTP_ACCEPT_LANGUAGE", "")):
        if code == "*":
            break
        try:
            return translation.get_supported_language_variant(code)
        except LookupError:
            continue
    return settings.LANGUAGE_CODE


class Kept:
    """A spectator page as last answered: status line, headers, body, when."""

    __slots__ = ("at", "body", "etag", "headers", "status")

    def __init__(self, status: str, headers: list[tuple[str, str]], body: bytes) -> None:
        self.status, self.headers, self.body, self.at = status, headers, body, time.monotonic()
        self.etag = next((value for name, value in headers if name.lower() == "etag"), None)


class SpectatorAdmission:
    """WSGI wrapper: a bounded number of spectator requests at once, the rest answered without Django."""

    def __init__(self, app: Callable, slots: int | None = None, retry_after: int | None = None) -> None:
        self.app = app
        self.slots_total = slots if slots is not None else settings.SPECTATOR_SLOTS
        self.slots = threading.BoundedSemaphore(max(1, self.slots_total))
        self.retry_after = retry_after if retry_after is not None else settings.BUSY_RETRY_AFTER
        self.copy_seconds = settings.BUSY_COPY_SECONDS
        self.fresh_seconds = settings.SPECTATOR_FRESH_SECONDS
        self.kept: OrderedDict[tuple[str, str, str], Kept] = OrderedDict()
        self.computing: set[tuple[str, str, str]] = set()
        self.lock = threading.Lock()

    def __call__(self, environ: dict, start_response: StartResponse) -> Iterable[bytes]:
        if not is_spectator(environ):
            return self.app(environ, start_response)
        language = language_of(environ)
        key = (environ.get("PATH_INFO", ""), environ.get("QUERY_STRING", ""), language)
        kept = self.copy(environ, key, self.fresh_seconds)
        if kept is not None:
            return self.give(environ, start_response, kept)
        shared = environ.get("REQUEST_METHOD") == "GET" and anonymous(environ)
        if shared:
            with self.lock:
                # One computation of a page at a time: the crowd arriving while it runs gets
                # the last copy (3,000 players' standings take a while), not a second one.
                computing = key in self.computing
                if not computing:
                    self.computing.add(key)
            if computing:
                return self.busy(environ, start_response, key, language)
        try:
            if not self.slots.acquire(blocking=False):
                return self.busy(environ, start_response, key, language)
            try:
                return self.answer(environ, start_response, key)
            finally:
                self.slots.release()
        finally:
            if shared:
                with self.lock:
                    self.computing.discard(key)

    def answer(self, environ: dict, start_response: StartResponse, key: tuple[str, str, str]) -> list[bytes]:
        """Django's answer, read whole within the slot; kept when every spectator may see it."""
        seen: dict = {}

        def remember(status: str, headers: list[tuple[str, str]], exc_info=None):
            seen.update(status=status, headers=headers)
            return start_response(status, headers, exc_info) if exc_info else start_response(status, headers)

        result = self.app(environ, remember)
        try:
            body = list(result)
        finally:
            close = getattr(result, "close", None)
            if close is not None:
                close()
        size = sum(len(chunk) for chunk in body)
        headers = seen.get("headers", [])
        if (
            seen.get("status", "").startswith("200")
            and environ.get("REQUEST_METHOD") == "GET"
            and size <= KEPT_BYTES
            and anonymous(environ)
            and all(value == key[2] for name, value in headers if name.lower() == "content-language")
            and not any(name.lower() == "set-cookie" for name, _value in headers)
        ):
            with self.lock:
                self.kept[key] = Kept(seen["status"], list(headers), b"".join(body))
                self.kept.move_to_end(key)
                while len(self.kept) > KEPT_PAGES:
                    self.kept.popitem(last=False)
        return body

    def copy(self, environ: dict, key: tuple[str, str, str], seconds: float) -> Kept | None:
        """The page as last answered to a spectator, when at most ``seconds`` old and this
        request may have it (GET or HEAD, not a logged-in browser's, not htmx)."""
        if environ.get("REQUEST_METHOD") not in ("GET", "HEAD") or personal(environ):
            return None
        with self.lock:
            kept = self.kept.get(key)
            if kept is not None:
                # The pages the flood asks for stay; a spectator inventing queries
                # (?x=1, ?x=2, ...) pushes out only his own, never asked again.
                self.kept.move_to_end(key)
        if kept is None or time.monotonic() - kept.at > seconds:
            return None
        return kept

    def give(self, environ: dict, start_response: StartResponse, kept: Kept) -> list[bytes]:
        """The kept page, or 304 when the browser holds it already (in the access log too)."""
        start_response = answered_here(environ, start_response)
        if kept.etag and kept.etag in environ.get("HTTP_IF_NONE_MATCH", ""):
            start_response("304 Not Modified", [(n, v) for n, v in kept.headers if n.lower() in ("etag", "vary")])
            return [b""]
        start_response(kept.status, kept.headers)
        return [b""] if environ.get("REQUEST_METHOD") == "HEAD" else [kept.body]

    def busy(
        self, environ: dict, start_response: StartResponse, key: tuple[str, str, str], language: str
    ) -> list[bytes]:
        """Every slot taken: the last page computed (up to BUSY_COPY_SECONDS old), else "busy"."""
        kept = self.copy(environ, key, self.copy_seconds)
        if kept is not None:
            return self.give(environ, start_response, kept)
        return self.busy_page(answered_here(environ, start_response), language)

    def busy_page(self, start_response: StartResponse, language: str) -> list[bytes]:
        """503 "busy, again in N s": small, translated, never cached (``start_response``
        from config.access.answered_here writes its access line)."""
        with translation.override(language):
            text = _("Many spectators are looking at once. The page loads again in %(seconds)s seconds.")
        return busy_answer(start_response, language, self.retry_after, text)


def busy_answer(start_response: StartResponse, language: str, retry_after: int, text: str) -> list[bytes]:
    """503 "The office is busy" with ``text`` (its ``%(seconds)s`` the retry): small,
    translated, never cached, reloading by itself after ``retry_after`` seconds."""
    with translation.override(language):
        title = _("The office is busy")
    text = text % {"seconds": retry_after}
    body = (
        f'<!DOCTYPE html><html lang="{language}"><head><meta charset="utf-8">'
        f'<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<meta http-equiv="refresh" content="{retry_after}">'
        f"<title>{escape(title)}</title></head><body><h1>{escape(title)}</h1><p>{escape(text)}</p></body></html>"
    ).encode()
    start_response(
        "503 Service Unavailable",
        [
            ("Content-Type", "text/html; charset=utf-8"),
            ("Content-Length", str(len(body))),
            ("Retry-After", str(retry_after)),
            ("Cache-Control", "no-store"),
            ("Date", formatdate(usegmt=True)),
            ("Content-Security-Policy", "default-src 'none'"),
            ("X-Content-Type-Options", "nosniff"),
        ],
    )
    return [body]
