"""Default values the models (and their migrations) name: table link tokens, lot seeds."""

from __future__ import annotations

import secrets


def new_token() -> str:
    """An unguessable table link token: 128 bits, URL-safe."""
    return secrets.token_urlsafe(16)


def new_seed() -> int:
    return secrets.randbelow(2**31)
