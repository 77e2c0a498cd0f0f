"""Shared by the tournaments' page tests."""

from __future__ import annotations

import pytest

from tests import factories


@pytest.fixture
def director(client):
    """A user signed in on ``client``; give him the tournament with ``directors=[director]``."""
    user = factories.user("director")
    client.force_login(user)
    return user
