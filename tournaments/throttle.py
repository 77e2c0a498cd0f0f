"""Login throttling: refuse password guessing without telling whether a user exists.

Every failed login is counted twice in the shared cache (settings.CACHES): once for
the username (case-folded, hashed) and once for the client address. When either count
reaches its limit within the window (settings LOGIN_FAILURE_LIMIT,
LOGIN_FAILURE_LIMIT_PER_IP, LOGIN_FAILURE_WINDOW), every further attempt for that
username or from that address is refused with the same message, even with the right
password, until the oldest counted failure is older than the window. Unknown
usernames are counted exactly like known ones, so the answer never reveals which
accounts exist. A successful login clears the username's count (not the address's).

The check sits in the login forms (ours and the admin's), not in a middleware, so the
refusal is a form error on the page a director already knows.
"""

from __future__ import annotations

import hashlib
import math
import time

from django import forms
from django.conf import settings
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import AuthenticationForm
from django.core.cache import cache
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

THROTTLED = "throttled"


def client_ip(request: HttpRequest | None) -> str:
    """The client's address: REMOTE_ADDR, or the address the PROXY_COUNT-th proxy saw."""
    if request is None:
        return "unknown"
    proxies = settings.PROXY_COUNT
    if proxies > 0:
        forwarded = [part.strip() for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if part.strip()]
        if len(forwarded) >= proxies:
            return forwarded[-proxies][:64]
    return (request.META.get("REMOTE_ADDR") or "unknown")[:64]


def _keys(username: str, ip: str) -> list[tuple[str, int]]:
    digest = hashlib.sha256(username.casefold().strip().encode("utf-8", "surrogatepass")).hexdigest()
    ip_digest = hashlib.sha256(ip.encode()).hexdigest()
    return [
        (f"login-failures:user:{digest}", settings.LOGIN_FAILURE_LIMIT),
        (f"login-failures:ip:{ip_digest}", settings.LOGIN_FAILURE_LIMIT_PER_IP),
    ]


def _recent(key: str, now: float) -> list[float]:
    window = settings.LOGIN_FAILURE_WINDOW
    stamps = cache.get(key) or []
    return [t for t in stamps if isinstance(t, int | float) and now - t < window]


def locked_for(username: str, ip: str, now: float | None = None) -> int:
    """Seconds until an attempt for ``username`` from ``ip`` is allowed again (0: now)."""
    now = time.time() if now is None else now
    wait = 0.0
    for key, limit in _keys(username, ip):
        stamps = _recent(key, now)
        if len(stamps) >= limit:
            # Allowed again once enough failures have left the window.
            wait = max(wait, stamps[-limit] + settings.LOGIN_FAILURE_WINDOW - now)
    return math.ceil(wait)


def record_failure(username: str, ip: str, now: float | None = None) -> None:
    now = time.time() if now is None else now
    for key, limit in _keys(username, ip):
        stamps = [*_recent(key, now), now][-limit:]
        cache.set(key, stamps, timeout=settings.LOGIN_FAILURE_WINDOW)


def clear_failures(username: str, ip: str, *, address_too: bool = False) -> None:
    """Forget the username's failures (and the address's, when asked: `manage.py unlocklogin`)."""
    keys = _keys(username, ip)
    cache.delete_many([key for key, _limit in (keys if address_too else keys[:1])])


class ThrottledLoginMixin:
    """For AuthenticationForm and its subclasses: refuse while locked, count failures."""

    def clean(self):
        username = str(self.data.get("username", ""))[:300]
        ip = client_ip(self.request)
        wait = locked_for(username, ip)
        if wait:
            minutes = max(1, math.ceil(wait / 60))
            raise forms.ValidationError(
                _(
                    "Too many failed logins for this username or from this device. "
                    "Try again in %(minutes)s minutes, or ask the tournament office to unlock your login."
                ),
                code=THROTTLED,
                params={"minutes": minutes},
            )
        try:
            cleaned = super().clean()
        except forms.ValidationError:
            record_failure(username, ip)
            raise
        if self.user_cache is not None:
            clear_failures(username, ip)
        return cleaned


class ThrottledAuthenticationForm(ThrottledLoginMixin, AuthenticationForm):
    pass


class ThrottledAdminAuthenticationForm(ThrottledLoginMixin, AdminAuthenticationForm):
    pass


class LoginView(auth_views.LoginView):
    """The office's login page: throttled, and answered 429 while an account is locked."""

    form_class = ThrottledAuthenticationForm

    def form_invalid(self, form):
        response = super().form_invalid(form)
        if form.has_error(forms.forms.NON_FIELD_ERRORS, THROTTLED):
            response.status_code = 429
        return response
