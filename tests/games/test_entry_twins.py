"""A double tap whose twin wins the race for the table's lock gets the twin's game, not a refusal."""

from __future__ import annotations

import uuid

import pytest

from games import entry
from games.models import Game
from tests import factories
from tests.tablelink.test_table_sheet_view import post_game

pytestmark = pytest.mark.django_db


def test_the_twin_saved_while_waiting_for_the_lock_is_the_answer(client, monkeypatch):
    table = factories.table_of(3)
    same = uuid.uuid4()
    fields = {"declarer_seat": 1, "contract": "clubs", "tops": 2, "declarer_points": 80}
    real_check = entry._check_open
    calls = []

    class Twin:
        """Stands in for the table lock: the twin request commits deal 1 while we wait."""

        class objects:  # stands in for Table.objects
            @staticmethod
            def lock(_pk):
                if not calls:
                    calls.append("twin")
                    factories.game(table, 1, client_id=same, **fields)

    monkeypatch.setattr(entry, "Table", Twin)
    monkeypatch.setattr(entry, "_check_open", lambda t: calls.append("checked") or real_check(t))
    response = post_game(client, table, 1, client_id=same, htmx=True, **fields)
    assert response.status_code == 200, response.content.decode()
    assert "Deal 1 entered: +36." in response.content.decode()
    assert calls == ["twin"]  # answered before the deal-order check could refuse it
    assert Game.objects.filter(table=table).count() == 1
