"""A registration's private link: the player's own page (where he sits, his results).

Like the PINs (signoff.pins) the link's secret is derived, not stored: an HMAC keyed with
the SECRET_KEY over the registration's id, its tournament and the moment it was made,
cut to 120 bits. So nothing secret sits in the database (a copy of it opens no player's
page), the QR on the start card and the office always agree, and a registration deleted
and made again (its id reused by a rolled-back test database) gets another link.

The token is ``<registration id>-<24 letters>``: the id finds the registration in one
query, the letters prove the link was given out by the office. Rotating SECRET_KEY
changes every link: do not rotate it between printing the start cards and the end of
the tournament. The page says where he sits and how he stands, nothing the table link
opens: the link holds no power to enter or sign anything.
"""

from __future__ import annotations

import base64
import hmac

from django.urls import reverse
from django.utils.crypto import salted_hmac

#: Never change: every start card printed carries links made with it.
SALT = "tournaments.player_links"
#: Bytes of the MAC kept (120 bits: 24 base32 letters, no padding).
MAC_BYTES = 15


def _mac(registration_id: int, tournament_id: int, registered_at) -> str:
    stamp = int(registered_at.timestamp() * 1_000_000) if registered_at else 0
    digest = salted_hmac(SALT, f"{registration_id}:{tournament_id}:{stamp}", algorithm="sha256").digest()
    return base64.b32encode(digest[:MAC_BYTES]).decode().lower()


def player_token(registration) -> str:
    """The token of ``registration``'s private link (needs its pk, tournament_id and registered_at)."""
    return f"{registration.pk}-{_mac(registration.pk, registration.tournament_id, registration.registered_at)}"


def registration_id(token: str) -> int | None:
    """The registration a token names, before it is checked (None: not a token's shape)."""
    number, sep, mac = (token or "").partition("-")
    if not sep or not number.isascii() or not number.isdigit() or len(number) > 12 or len(mac) != 24:
        return None
    return int(number)


def token_matches(registration, token: str) -> bool:
    """The token is this registration's, compared in constant time."""
    return hmac.compare_digest(player_token(registration).encode(), (token or "").encode("utf-8", "replace"))


def player_path(registration) -> str:
    """The private page's path (make it absolute with core.addresses for a QR)."""
    return reverse("player:page", args=[player_token(registration)])
