"""The rights page under a hostile hand (the review of 2026-11-27)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests import factories

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("right", ["²"])
def test_revoke_with_a_right_that_is_no_league_id_is_refused_not_a_500(client, right):
    """rights._league: "²".isdigit() is True but int("²") raises; 30 digits overflow SQLite's integer."""
    client.raise_request_exception = False
    client.force_login(factories.user("office", superuser=True))
    anna = factories.user("anna")
    answer = client.post(reverse("leagueoffice:revoke", args=[anna.pk]), {"right": right})
    assert answer.status_code == 302
