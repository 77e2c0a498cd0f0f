"""The hall asks the league server for its match-day package (standard library only, as
:mod:`leagues.sending` publishes): ``GET .../league/api/package/`` with the host's token.

Only from the league servers the office's operator allowed (``SKAT_LEAGUE_SERVERS``):
whoever may import could otherwise make the hall laptop fetch any address it reaches (the
router's page, another device of the hall, a service on the laptop itself) with the host's
token in the request. Nothing is fetched before the address passed, and no redirect is
followed, so the request never leaves the allowed server. The answer is read with a cap
(:data:`leagues.packages.schema.LIMITS`): a larger one is refused before it is held whole. Nothing
is written here.
"""

from __future__ import annotations

import http.client
import ipaddress
import json
import socket
import time
import urllib.error
import urllib.parse
import urllib.request

from django.conf import settings
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


class _PinnedHTTPS(urllib.request.HTTPSHandler):
    """https to the addresses that were checked (:func:`_public_https_check`), the
    certificate still checked against the name: a name looked up again for the request
    could now be the laptop's or the router's (DNS rebinding). No proxy: it would look the
    name up itself."""

    def __init__(self, addresses: tuple[str, ...]) -> None:
        super().__init__()
        self.addresses = addresses

    def https_open(self, req):
        addresses = self.addresses

        def connect(where: tuple[str, int], *args) -> socket.socket:
            failure: OSError | None = None
            for address in addresses:  # each in turn, as socket.create_connection tries a name's
                try:
                    return socket.create_connection((address, where[1]), *args)
                except OSError as error:
                    failure = error
            raise failure or OSError("no address")

        def connection(host: str, **kwargs) -> http.client.HTTPSConnection:
            made = http.client.HTTPSConnection(host, **kwargs)
            made._create_connection = connect
            return made

        return self.do_open(connection, req, context=self._context)


def _pinned_opener(addresses: tuple[str, ...]) -> urllib.request.OpenerDirector:
    return urllib.request.build_opener(_NoRedirects, urllib.request.ProxyHandler({}), _PinnedHTTPS(addresses))


DEFAULT_PORTS = {"http": 80, "https": 443}


def _server(entry: str) -> tuple[str | None, str, int | None, str] | None:
    """An entry of SKAT_LEAGUE_SERVERS as (scheme or None, host, port or None, path);
    None for one that admits nothing: it names no host, or a scheme other than http and
    https (``htps://liga.example.org``: only those two are fetched from)."""
    text = entry.strip()
    try:
        parts = urllib.parse.urlsplit(text if "://" in text else f"//{text}")
        port = parts.port
    except ValueError:  # "[::1" too: a bad entry is none, never a 500 on every fetch
        return None
    host = (parts.hostname or "").rstrip(".")
    if not host or parts.scheme.lower() not in ("", *DEFAULT_PORTS):
        return None
    return (parts.scheme.lower() or None, host, port, parts.path.rstrip("/"))


def unusable_servers() -> list[str]:
    """The entries of ``settings.SKAT_LEAGUE_SERVERS`` that name no http(s) host ("https://",
    "/league", "[::1", "htps://liga.example.org"): no address is admitted by them (config
    check packages.W001)."""
    return [entry for entry in settings.SKAT_LEAGUE_SERVERS if entry.strip() and _server(entry) is None]


def shown_entries(entries: list[str]) -> str:
    """Entries of the setting as a message shows them: each cut to 80 characters."""
    return ", ".join(entry.strip()[:80] for entry in entries)


def _admits(server: tuple[str | None, str, int | None, str], parts: urllib.parse.SplitResult) -> bool:
    scheme, host, port, path = server
    if (parts.hostname or "").rstrip(".") != host or (scheme and parts.scheme.lower() != scheme):
        return False
    asked = parts.port or DEFAULT_PORTS[parts.scheme.lower()]
    if asked != (port or DEFAULT_PORTS[scheme or parts.scheme.lower()]):
        return False
    return not path or parts.path == path or parts.path.startswith(f"{path}/")


def _shown(parts: urllib.parse.SplitResult) -> str:
    """The address's host and port, without a user or password it may carry."""
    host = parts.hostname or ""
    return f"{host}:{parts.port}" if host and parts.port else host


def refusal(url: str) -> str | None:
    """Why the office does not fetch from ``url``; None when it may.

    It may from an http(s) address of a league server in ``settings.SKAT_LEAGUE_SERVERS``:
    an entry ``https://liga.example.org`` admits that scheme, host and port (443 unless
    given) and any path, ``https://liga.example.org/verband`` only paths under /verband,
    a bare ``liga.example.org[:port]`` both schemes on their usual ports (or the one given);
    an entry that names no http(s) host admits nothing, and with no usable entry at all nothing is
    fetched (the setting was meant to restrict). None set: any https address on the
    internet (:func:`_public_https_check`), never one in the hall's network or on the
    laptop itself.
    """
    return _decision(url)[0]


def _decision(url: str) -> tuple[str | None, tuple[str, ...] | None]:
    """:func:`refusal`, and the addresses checked when the request must go to them alone."""
    try:
        parts = urllib.parse.urlsplit(url)
        parts.port  # noqa: B018 - a port that is none raises here
    except ValueError:
        return _("url: not an address (its port is no number from 0 to 65535)"), None
    if parts.scheme.lower() not in DEFAULT_PORTS:
        return _("url: only an http:// or https:// address of the league server"), None
    named = [entry for entry in settings.SKAT_LEAGUE_SERVERS if entry.strip()]
    if not named:
        return _public_https_check(parts)
    servers = [server for entry in named if (server := _server(entry))]
    if not servers:
        # The operator meant to restrict: none of the entries is usable, so none is admitted
        # (not "any https address on the internet", as with the setting unset).
        return _(
            "url: the setting SKAT_LEAGUE_SERVERS names no league server (no http(s) host in: %(entries)s), "
            "so the office fetches from none; have it corrected (e.g. https://liga.example.org), "
            "or import the package's file"
        ) % {"entries": shown_entries(named)}, None
    if not any(_admits(server, parts) for server in servers):
        return _(
            "url: %(host)s is none of the league servers this office fetches from (setting "
            "SKAT_LEAGUE_SERVERS: %(servers)s); give one of them, or import the package's file"
        ) % {"host": _shown(parts) or url[:80], "servers": ", ".join(settings.SKAT_LEAGUE_SERVERS)}, None
    return None, None


#: IPv6 addresses that carry an IPv4 one a gateway may lead to: IPv4-compatible (::a.b.c.d,
#: deprecated) and NAT64's well-known prefix; 6to4 and IPv4-mapped are read by ipaddress.
_COMPATIBLE = ipaddress.ip_network("::/96")
_NAT64 = ipaddress.ip_network("64:ff9b::/96")


def _on_internet(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    """Whether ``address`` is on the internet, also the IPv4 address an IPv6 one embeds
    (``[64:ff9b::192.168.1.1]`` reaches the router through a NAT64 gateway)."""
    if not address.is_global:
        return False
    if isinstance(address, ipaddress.IPv6Address):
        if address in _COMPATIBLE:
            return False
        embedded = address.ipv4_mapped or address.sixtofour
        if address in _NAT64:
            embedded = ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
        if embedded is not None and not embedded.is_global:
            return False
    return True


def _public_https_check(parts: urllib.parse.SplitResult) -> tuple[str | None, tuple[str, ...] | None]:
    """With no league server named, the office fetches from https addresses on the
    internet only: a league server is one (its address printed on the federation's
    letter), while the router, the hall's other devices and the laptop itself are not, so
    the host's token never reaches them. A name is looked up first (the system's
    resolver; in a hall without internet that fails, and the file is imported instead).
    Why not, or None and the addresses checked: the request goes to them, not to the name
    looked up once more (which could by then be the router's)."""
    if parts.scheme.lower() != "https":
        return _(
            "url: without SKAT_LEAGUE_SERVERS set, the office fetches only from https:// addresses "
            "(the host's token travels with the request); give the league server's https address"
        ), None
    host = (parts.hostname or "").rstrip(".")
    try:
        found = {ipaddress.ip_address(host)}
    except ValueError:
        try:
            found = {
                ipaddress.ip_address(info[4][0].split("%")[0])
                for info in socket.getaddrinfo(host, parts.port or 443, proto=socket.IPPROTO_TCP)
            }
        except (OSError, UnicodeError, ValueError):
            return _("url: %(host)s cannot be found (no internet here?): import the package's file instead") % {
                "host": host[:80]
            }, None
    if not found or not all(_on_internet(address) for address in found):
        return _(
            "url: %(host)s is in this network or on this computer, not on the internet: the office fetches "
            "from such an address only when it is named in the setting SKAT_LEAGUE_SERVERS"
        ) % {"host": host[:80]}, None
    return None, tuple(str(address) for address in sorted(found, key=lambda address: (address.version, int(address))))


def fetch(url: str, token: str, *, key: str = "", timeout: float = 30) -> bytes:
    """The package's bytes from the server's endpoint (``key``: one match day of the host's),
    if it is one of the allowed league servers' (:func:`refusal`)."""
    refused, addresses = _decision(url)
    if refused:
        raise PackageError(refused)
    opener = _OPENER if addresses is None else _pinned_opener(addresses)
    if key:
        url = f"{url}{'&' if '?' in url else '?'}{urllib.parse.urlencode({'matchday': key})}"
    request = urllib.request.Request(url, headers={"Authorization": f"Token {token}", "Accept": "application/json"})
    try:
        with opener.open(request, timeout=timeout) as response:
            content = _read(response, LIMITS.size + 1, time.monotonic() + timeout)
    except urllib.error.HTTPError as error:
        if 300 <= error.code < 400:
            raise PackageError(
                _(
                    "url: the address redirects elsewhere (%(status)s), and a redirect is not followed "
                    "(the host's token goes to the address given only); give the league server's own address"
                )
                % {"status": error.code}
            ) from None
        raise PackageError(
            _("url: the league server refused (%(status)s): %(reason)s")
            % {"status": error.code, "reason": _reason(error.read(4096))}
        ) from None
    except (OSError, http.client.HTTPException, ValueError) as error:
        # OSError: also URLError, a timeout, a TLS error while reading; HTTPException: an
        # answer that is no HTTP (a bad status line, cut short): all the server's, no 500.
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
