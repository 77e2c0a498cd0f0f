"""Device cookies: a browser that logged in before keeps its own failure budget.

After OWASP's "Slow down online guessing attacks with device cookies". A successful login
on the office's login page leaves a signed cookie in the browser naming the login (the
digest of the user name as the throttle folds it) and a random nonce. An attempt that
brings a valid cookie naming the user name it tries is a *trusted* one: it counts only
against that cookie (LOGIN_FAILURE_LIMIT failures within the window lock that cookie), never
against the user name or the address. Every other attempt is *untrusted*: it counts
against the user name for untrusted devices and against the client (accounts.throttle).
So a stranger guessing ``director``'s password locks out only untrusted devices; the
director's own browser still logs in.

The cookie is signed with the SECRET_KEY (a stranger cannot make one for an account whose
password he does not know), lives a year, is sent only to ``/accounts/`` (the login page;
no other page sees it, the spectators' shared copies among them), is HttpOnly and, behind
HTTPS, Secure. One browser may hold cookies for several logins (an office laptop shared by
the director and a referee): the newest :data:`MAX_LOGINS`. Each success gives a new nonce,
so the cookie's failures are forgotten with it.
"""

from __future__ import annotations

import hashlib
import secrets
import unicodedata

from django.conf import settings
from django.core import signing
from django.http import HttpRequest, HttpResponse

COOKIE = "office_device"
COOKIE_PATH = "/accounts/"
SALT = "accounts.devices"
AGE = 365 * 24 * 3600
MAX_LOGINS = 8


def username_digest(username: str) -> str:
    """The user name as Django's login reads it (NFKC), case-folded, hashed: one key per login."""
    name = unicodedata.normalize("NFKC", username).casefold().strip()
    return hashlib.sha256(name.encode("utf-8", "surrogatepass")).hexdigest()


def _entries(request: HttpRequest | None) -> list[list[str]]:
    """The (digest, nonce) pairs of the request's device cookie; none when absent, forged or old."""
    value = request.COOKIES.get(COOKIE) if request is not None else None
    if not value:
        return []
    try:
        entries = signing.loads(value, salt=SALT, max_age=AGE)
    except signing.BadSignature:
        return []
    if not isinstance(entries, list):
        return []
    return [e for e in entries if isinstance(e, list) and len(e) == 2 and all(isinstance(x, str) for x in e)]


def trusted_nonce(request: HttpRequest | None, username: str) -> str | None:
    """The nonce of this browser's device cookie for ``username``; None: an untrusted device."""
    digest = username_digest(username)
    return next((nonce for name, nonce in _entries(request) if name == digest), None)


def remember(request: HttpRequest, response: HttpResponse, username: str) -> None:
    """After a successful login: this browser is trusted for ``username`` (a new nonce)."""
    digest = username_digest(username)
    entries = [[digest, secrets.token_urlsafe(16)]]
    entries += [entry for entry in _entries(request) if entry[0] != digest][: MAX_LOGINS - 1]
    response.set_cookie(
        COOKIE,
        signing.dumps(entries, salt=SALT, compress=True),
        max_age=AGE,
        path=COOKIE_PATH,
        secure=settings.SESSION_COOKIE_SECURE,
        httponly=True,
        samesite="Lax",
    )
