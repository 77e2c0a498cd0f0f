"""The office's own address on what it prints: table cards, QR codes, links.

A phone in the hall must reach every link the office prints, so an absolute link is
built on ``settings.OFFICE_URL`` (the hall address, ``config.hall``), not on the address
the director's browser happened to use (often ``127.0.0.1`` on the laptop itself).
Without one (a league server behind HTTPS) the request's own address is used.
"""

from __future__ import annotations

import ipaddress
from urllib.parse import urlsplit

from django.conf import settings
from django.http import HttpRequest


def is_loopback(host: str | None) -> bool:
    """``host`` (a name or an address) only reaches this computer."""
    if not host:
        return False
    if host.lower() in {"localhost", "localhost.localdomain"}:
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def url_is_loopback(url: str) -> bool:
    return is_loopback(urlsplit(url).hostname)


def absolute_link(request: HttpRequest, path: str) -> str:
    """``path`` on the office's address: what a phone in the hall opens."""
    base = settings.OFFICE_URL
    return base.rstrip("/") + path if base else request.build_absolute_uri(path)


def loopback_office(request: HttpRequest) -> str:
    """The office's address if links printed now would only work on this computer, else ""."""
    base = absolute_link(request, "/")
    return base if url_is_loopback(base) else ""
