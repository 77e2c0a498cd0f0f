"""A double tap whose twin wins the race for the table's lock gets the twin's game, not a refusal."""

from __future__ import annotations

import uuid

import pytest

from scoring import entry
from scoring.models import Game
from tests import factories
from tests.tablelink.test_table_sheet_view import post_game
from tournaments.models import Table

pytestmark = pytest.mark.django_db


def test_the_twin_saved_while_waiting_for_the_lock_is_the_answer(client, monkeypatch):
    table = factories.table_of(3)
    same = uuid.uuid4()
    fields = {"declarer_seat": 1, "contract": "clubs", "tops": 2, "declarer_points": 80}
    real_check = entry._check_open
    calls = []

    def twin_commits_meanwhile(_pk):
        """Stands in for the table lock: the twin request commits deal 1 while we wait."""
        if not calls:
            calls.append("twin")
            factories.game(table, 1, client_id=same, **fields)

    monkeypatch.setattr(Table.objects, "lock", twin_commits_meanwhile)
    monkeypatch.setattr(entry, "_check_open", lambda *args: calls.append("checked") or real_check(*args))
    response = post_game(client, table, 1, client_id=same, htmx=True, **fields)
    assert response.status_code == 200, response.content.decode()
    assert "Deal 1 entered: +36." in response.content.decode()
    assert calls == ["twin"]  # answered before the deal-order check could refuse it
    assert Game.objects.filter(table=table).count() == 1


@pytest.mark.django_db(transaction=True)  # outside a transaction, as a phone's request is
def test_on_sqlite_the_threads_of_a_process_take_turns_before_beginning_to_write(monkeypatch):
    """SQLite's busy wait sleeps up to 100 ms between looks at its lock: a writer waits for
    its turn at the process's own lock instead, woken the moment the one before is done."""
    table = factories.table_of(3)
    seen = []
    real_atomic = entry.transaction.atomic

    def atomic(*args, **kwargs):
        seen.append(entry._ONE_WRITER.locked())
        return real_atomic(*args, **kwargs)

    monkeypatch.setattr(entry.transaction, "atomic", atomic)
    form = factories.phone_form(table)
    assert entry.add_game(form, entered_by="x").created
    assert seen[:1] == [entry.connections["default"].vendor == "sqlite"]
    assert not entry._ONE_WRITER.locked()  # given back
