"""Withdrawing a deduction or forfeit checks its reason as the form does."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests import factories

pytestmark = pytest.mark.django_db


def test_withdrawing_a_deduction_checks_its_reason_as_the_form_does(client):
    """leagues.seasons.views._withdraw never validates WithdrawForm: a NUL byte (PostgreSQL: 500) is stored."""
    from leagues.seasons.models import Deduction
    from leagues.seasons.services import deduct

    manager = factories.user("staffelleiter")
    league, _group, teams = factories.league_group(managers=[manager])
    item = deduct(teams[0], 1, "late", user=manager)
    client.force_login(manager)
    url = reverse("seasons:deduction_withdraw", args=[league.pk, item.pk])
    client.post(url, {"reason": "a\x00b"})
    item = Deduction.objects.get(pk=item.pk)
    assert "\x00" not in item.withdrawal and item.in_force
