"""scoring.admin: no game reaches the database past the engine through the admin."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests import factories

pytestmark = pytest.mark.django_db


def test_the_admin_can_neither_add_nor_change_a_game(client):
    """Every path into a game goes through the engine; the admin has none (a null game with tops stays out)."""
    client.force_login(factories.user("root", superuser=True))
    table = factories.table_of(3)
    game = factories.game(table, 1, declarer_seat=1, contract="grand", tops=1, declarer_points=70)
    null_with_tops = {"table": table.pk, "number": 1, "contract": "null", "tops": 2, "declarer_tricks": 0}
    assert client.post(reverse("admin:scoring_game_add"), null_with_tops).status_code == 403
    change = client.post(reverse("admin:scoring_game_change", args=[game.pk]), null_with_tops)
    assert change.status_code in (200, 403)  # read-only view: the post is not saved
    game.refresh_from_db()
    assert (game.contract, game.tops) == ("grand", 1)
