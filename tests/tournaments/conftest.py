"""Fixtures of the director's pages' tests."""

from __future__ import annotations

import pytest

from tests import factories


@pytest.fixture
def director(client):
    """A logged-in director (of the tournaments a test names him director of)."""
    user = factories.user("director")
    client.force_login(user)
    return user
