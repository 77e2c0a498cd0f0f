"""Login throttling: refuse password guessing without telling whether a user exists, and
without letting a stranger lock someone else out.

An attempt from a browser that logged in as that user before (its device cookie:
accounts.devices) is *trusted*: it counts only against that cookie, LOGIN_FAILURE_LIMIT
failures within the window lock that cookie alone. Every other attempt is *untrusted* and
is counted as rows of :class:`~accounts.models.LoginAttempt` (in the database all server
processes share) under three keys: the username (case-folded, hashed; the untrusted
devices' count of that account), the client's address (an IPv4 address, an IPv6 address
as it is, a /128) and, for IPv6, its /64 (:func:`client_network`). When a count reaches
its limit within the window (settings LOGIN_FAILURE_LIMIT, LOGIN_FAILURE_LIMIT_PER_IP,
LOGIN_FAILURE_LIMIT_PER_NETWORK, LOGIN_FAILURE_WINDOW), every further untrusted attempt
for that username or from that client is refused with the same message, even with the
right password, until the oldest counted failure is older than the window. The /64's
ceiling is higher than the address's limit: one phone of a hall whose phones all share one
/64 locks itself, not the hall; a device rotating its addresses through its /64 is still
held by the ceiling. A stranger's failures against ``director`` lock untrusted devices out
of that account, never the director's own browser. Unknown usernames are counted exactly
like known ones, so the answer never reveals which accounts exist.

The count is taken *before* the password is checked, and the database is the arbiter:
:func:`begin_attempt` locks the attempt's keys, counts their rows within the window
(the attempts still being checked by other workers included) and, when all are below
their limits, writes the attempt's rows, all in one short transaction. So of any
number of simultaneous guesses at most LOGIN_FAILURE_LIMIT reach the password check
(PBKDF2 takes a good fraction of a second; counting only after it, a burst would get
every guess through). An attempt that finds the limit taken only by attempts still being
checked waits in line for them instead of being refused: a burst of guesses is refused
once they are found wrong, and simultaneous right logins of one account all get in. The
lock is SQLite's write lock (IMMEDIATE transactions, and the transaction writes first in
any case) or a PostgreSQL advisory lock per key.

After the check: a wrong password leaves the rows, now a failure (an error on the way
leaves them too, a failure once PENDING_STALE has passed).
A success (also the right password of an account the admin's login does not admit,
which is no guess) deletes every row of its first key (the username's count, or the
device cookie's) and the attempt's own rows, so successful logins never count against an
address, while the address's earlier failures stay counted. A refused attempt writes
nothing: it neither counts nor prolongs the lock. A form sent without a password
checks nothing and counts nothing.

The check sits in the login forms (ours and the admin's), not in a middleware, so the
refusal is a form error on the page a director already knows; the office's login page
gives the browser its device cookie on success (the admin's login counts as untrusted).
"""

from __future__ import annotations

import hashlib
import ipaddress
import math
import time
from dataclasses import dataclass
from datetime import UTC, datetime

from django import forms
from django.conf import settings
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import AuthenticationForm
from django.db import connection, transaction
from django.db.models import Q
from django.http import HttpRequest
from django.utils.translation import ngettext

from . import devices
from .models import LoginAttempt

THROTTLED = "throttled"
# At most this many expired rows are deleted per attempt: each attempt writes two, so
# the table never grows beyond the attempts of one window, and no request pays for a
# long backlog at once.
PRUNE_BATCH = 500
# The first half of the two-part PostgreSQL advisory lock ids ("Skat"), so the
# throttle's locks never meet another user of advisory locks.
ADVISORY_LOCK_SPACE = 0x536B6174
#: How long an attempt waits in line for the attempts being checked (a password check
#: takes a fraction of a second), and how often it looks again.
QUEUE_SECONDS = 10
QUEUE_POLL = 0.05
#: An attempt still "being checked" after this long was lost on the way (a worker killed):
#: it counts as a failure.
PENDING_STALE = 60


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


def client_network(request: HttpRequest | None) -> str:
    """What a guess limit counts as one client: an IPv4 address, or an IPv6 address's /64.

    One device (a phone with privacy extensions, a laptop behind one router) is given a whole
    /64 and may pick a new address in it for every request: counted per address, it would
    guess on and on. An IPv4-mapped IPv6 address counts as its IPv4 address; anything else
    (no address, "unknown") as it is.
    """
    return network_of(client_ip(request))


def network_of(ip: str) -> str:
    """:func:`client_network` of an address given as text (``unlocklogin --address``): the
    same for any address of one /64, and for a network it returned already."""
    try:
        address = ipaddress.ip_address(ip.split("%", 1)[0])
    except ValueError:
        return ip
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)


@dataclass(frozen=True)
class _Count:
    """One count of an attempt: the key its rows are written under, the keys it counts
    rows of (that key first) and the limit."""

    key: str
    counted: tuple[str, ...]
    limit: int


def address_of(ip: str) -> str:
    """One client address as text: an IPv6 address in one spelling (a /128), an IPv4-mapped
    one as its IPv4 address, anything else as it is."""
    try:
        address = ipaddress.ip_address(ip.split("%", 1)[0])
    except ValueError:
        return ip
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return str(address.ipv4_mapped)
    return str(address)


def _device_prefix(username: str) -> str:
    """The start of every device-cookie key of ``username`` (71 characters in all)."""
    return f"device:{devices.username_digest(username)[:32]}"


def _keys(username: str, ip: str, device: str | None = None) -> list[_Count]:
    """What an attempt counts against; the first key is the one a success clears.

    Trusted (``device``: the nonce of the browser's device cookie for this username): that
    cookie alone. Untrusted: the username as Django's login checks it (NFKC, as
    AbstractBaseUser.normalize_username), case-folded: "anna" in fullwidth letters logs in
    as "anna", so it must count as "anna" too; the client's address; for IPv6 its /64 with
    the higher ceiling. The keys are those the throttle always wrote (``ip:`` and the
    digest of the address, of the /64), so no failure is forgiven by an update.
    """
    if device is not None:
        # The username's digest leads, so `manage.py unlocklogin` finds its cookies' rows.
        key = f"{_device_prefix(username)}{hashlib.sha256(device.encode()).hexdigest()[:32]}"
        return [_Count(key, (key,), settings.LOGIN_FAILURE_LIMIT)]
    user = f"user:{devices.username_digest(username)}"
    address = f"ip:{hashlib.sha256(address_of(ip).encode()).hexdigest()}"
    raw = f"ip:{hashlib.sha256(ip.encode()).hexdigest()}"
    counts = [
        _Count(user, (user,), settings.LOGIN_FAILURE_LIMIT),
        _Count(address, tuple(dict.fromkeys((address, raw))), settings.LOGIN_FAILURE_LIMIT_PER_IP),
    ]
    network = network_of(ip)
    if network != address_of(ip):
        key = f"ip:{hashlib.sha256(network.encode()).hexdigest()}"
        counts.append(_Count(key, (key,), settings.LOGIN_FAILURE_LIMIT_PER_NETWORK))
    return counts


def _moment(seconds: float) -> datetime:
    return datetime.fromtimestamp(seconds, tz=UTC)


def _lock(keys: list[str]) -> None:
    """Serialise the attempts on these keys until the transaction ends.

    PostgreSQL: one advisory lock per key, taken in a fixed order so two attempts never
    wait for each other crosswise. SQLite needs none: its IMMEDIATE transactions hold
    the database's single write lock from the start (and even a deferred one would take
    it with the prune, the first statement, before anything is counted).
    """
    if connection.vendor != "postgresql":
        return
    ids = sorted({int.from_bytes(hashlib.sha256(key.encode()).digest()[:4], "big", signed=True) for key in keys})
    with connection.cursor() as cursor:
        for lock_id in ids:
            cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [ADVISORY_LOCK_SPACE, lock_id])


def _prune(now: float) -> None:
    """Delete a bounded batch of rows that have left the window, whatever their key.

    Rows another transaction is deleting right now are skipped (PostgreSQL's SKIP
    LOCKED), so pruning never waits and never deadlocks; SQLite ignores the clause.
    """
    expired = (
        LoginAttempt.objects.select_for_update(skip_locked=True)
        .filter(created__lte=_moment(now - settings.LOGIN_FAILURE_WINDOW))
        .order_by("created")
        .values("pk")[:PRUNE_BATCH]
    )
    LoginAttempt.objects.filter(pk__in=expired).delete()


def _wait(keys: list[_Count], now: float, *, pending_too: bool = True) -> float:
    """Seconds until the rows within the window leave every key below its limit (0: now).

    ``pending_too=False`` counts only failures: rows whose password was found wrong, and
    rows still "being checked" after :data:`PENDING_STALE` seconds (a worker that died
    on the way), which count as failures."""
    window = settings.LOGIN_FAILURE_WINDOW
    wait = 0.0
    for count in keys:
        limit = count.limit
        if limit < 1:
            wait = max(wait, window)
            continue
        rows = LoginAttempt.objects.filter(key__in=count.counted, created__gt=_moment(now - window))
        if not pending_too:
            rows = rows.filter(Q(pending=False) | Q(created__lte=_moment(now - PENDING_STALE)))
        newest = list(rows.order_by("-created").values_list("created", flat=True)[:limit])
        if len(newest) >= limit:
            # Allowed again once the limit-th newest attempt has left the window.
            wait = max(wait, newest[-1].timestamp() + window - now)
    return wait


@dataclass(frozen=True)
class Attempt:
    """A login attempt as :func:`begin_attempt` counted it: refused (``wait`` > 0, nothing
    written) or admitted to the password check with its rows (``row_ids``) written."""

    user_key: str
    row_ids: tuple[int, ...]
    wait: int

    def succeeded(self) -> None:
        """The password was right: clear the username's count and drop this attempt's
        own row of the address (a success is no failure; earlier ones stay counted)."""
        LoginAttempt.objects.filter(Q(key=self.user_key) | Q(pk__in=self.row_ids)).delete()

    def failed(self) -> None:
        """The password was wrong: the attempt's rows stay, counted as failures now."""
        LoginAttempt.objects.filter(pk__in=self.row_ids).update(pending=False)

    def abandoned(self) -> None:
        """No password was checked (a field was empty): the attempt does not count."""
        if self.row_ids:
            LoginAttempt.objects.filter(pk__in=self.row_ids).delete()


def begin_attempt(username: str, ip: str, now: float | None = None, device: str | None = None) -> Attempt:
    """Count a login attempt before its password is checked, atomically.

    Refused (``wait`` seconds, nothing written) when the username's or the address's
    failures have reached the limit within the window. When they have not, but together
    with the attempts other workers are still checking they would, the attempt waits in
    line (up to :data:`QUEUE_SECONDS`) for those to end: so at most the limit reach the
    password check at once, a burst of guesses is refused as soon as they are found wrong,
    and ten right logins of one account at the same moment all get in. Admitted, the
    attempt's rows are committed before this returns, so every later attempt counts it.
    Must not run inside another transaction (it would hold the lock, and hide the rows,
    until that one ends): ``durable`` makes sure. With ``now`` given (tests) it never
    waits: the attempts being checked count as failures. ``device``: the nonce of the
    browser's device cookie for this username (accounts.devices), a trusted attempt.
    """
    keys = _keys(username, ip, device)
    deadline = time.monotonic() + QUEUE_SECONDS
    while True:
        moment = time.time() if now is None else now
        with transaction.atomic(durable=True):
            _lock([count.key for count in keys])
            _prune(moment)
            failed = _wait(keys, moment, pending_too=False)
            if failed:
                return Attempt(keys[0].key, (), math.ceil(failed))
            busy = _wait(keys, moment)
            if not busy:
                rows = LoginAttempt.objects.bulk_create(
                    [LoginAttempt(key=count.key, created=_moment(moment), pending=True) for count in keys]
                )
                return Attempt(keys[0].key, tuple(row.pk for row in rows), 0)
        if now is not None:
            return Attempt(keys[0].key, (), math.ceil(busy))
        if time.monotonic() >= deadline:
            return Attempt(keys[0].key, (), QUEUE_SECONDS)
        time.sleep(QUEUE_POLL)


def locked_for(username: str, ip: str, now: float | None = None, device: str | None = None) -> int:
    """Seconds until an attempt for ``username`` from ``ip`` (with the device cookie's
    nonce ``device``: a trusted one) is allowed again (0: now)."""
    now = time.time() if now is None else now
    return math.ceil(_wait(_keys(username, ip, device), now, pending_too=False))


def clear_failures(username: str, ip: str, *, address_too: bool = False) -> None:
    """Forget the username's failures, its trusted browsers' too (and the address's and
    its /64's for an IPv6 address, when asked: `manage.py unlocklogin`)."""
    user, *clients = _keys(username, ip)
    keys = user.counted + (tuple(key for count in clients for key in count.counted) if address_too else ())
    LoginAttempt.objects.filter(Q(key__in=keys) | Q(key__startswith=_device_prefix(username))).delete()


class ThrottledLoginMixin:
    """For AuthenticationForm and its subclasses: count the attempt before the password
    is checked, refuse while locked, and clear the username's count on success."""

    def clean(self):
        username = str(self.data.get("username", ""))[:300]
        # The address itself: begin_attempt counts it and, for IPv6, its /64; a browser
        # that logged in as this user before counts only against its device cookie.
        device = devices.trusted_nonce(self.request, username)
        attempt = begin_attempt(username, client_ip(self.request), device=device)
        if attempt.wait:
            minutes = max(1, math.ceil(attempt.wait / 60))
            raise forms.ValidationError(
                ngettext(
                    "Too many failed logins for this username or from this device. "
                    "Try again in %(minutes)s minute, or ask the tournament office to unlock your login.",
                    "Too many failed logins for this username or from this device. "
                    "Try again in %(minutes)s minutes, or ask the tournament office to unlock your login.",
                    minutes,
                ),
                code=THROTTLED,
                params={"minutes": minutes},
            )
        # A wrong password raises here: the rows stay, a failure.
        try:
            cleaned = super().clean()
        except forms.ValidationError:
            if self.user_cache is not None:
                # The right password of an account not allowed here (the admin's login
                # for a referee): no guess, so it does not count against the name.
                attempt.succeeded()
            else:
                attempt.failed()
            raise
        if self.user_cache is not None:
            attempt.succeeded()
        else:
            attempt.abandoned()
        return cleaned


class ThrottledAuthenticationForm(ThrottledLoginMixin, AuthenticationForm):
    pass


class ThrottledAdminAuthenticationForm(ThrottledLoginMixin, AdminAuthenticationForm):
    pass


class LoginView(auth_views.LoginView):
    """The office's login page: throttled, answered 429 while an account is locked, and
    leaving the browser its device cookie on success (accounts.devices)."""

    form_class = ThrottledAuthenticationForm

    def form_valid(self, form):
        response = super().form_valid(form)
        devices.remember(self.request, response, str(form.cleaned_data.get("username", ""))[:300])
        return response

    def form_invalid(self, form):
        response = super().form_invalid(form)
        if form.has_error(forms.forms.NON_FIELD_ERRORS, THROTTLED):
            response.status_code = 429
        return response
