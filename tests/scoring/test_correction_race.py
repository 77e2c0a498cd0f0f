"""A correction racing a new entry: the deal is loaded and checked under the
table's lock, so a correction meant for deal n never rewrites deal n-1.

The first test replays the race in one thread (the new deal is saved while the
correction waits for the lock); the second runs it for real on PostgreSQL, where the
view's read and the lock are separate round trips (SQLite's IMMEDIATE transactions
serialise every writer, so the window hardly opens there and the test is skipped).
"""

from __future__ import annotations

import uuid

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from scoring import services
from scoring.models import Game
from tests import factories
from tests.threads import in_parallel
from tournaments.models import Table

#: The correction's content: a game deal 2 (dealt by seat 2 at four) could be, not deal 1.
CORRECTION = {"declarer_seat": "1", "contract": "grand", "tops_kind": "with", "tops": "1", "declarer_points": "90"}


def _sheet(table: Table) -> list[tuple]:
    return list(
        Game.objects.filter(table=table).order_by("number").values_list("number", "declarer_seat", "version", "score")
    )


@pytest.mark.django_db
def test_a_correction_meant_for_a_deal_saved_meanwhile_rewrites_nothing(client, monkeypatch):
    table = factories.table_of(4)
    factories.game(table, 1, declarer_seat=2, contract="hearts", tops=1, declarer_points=70)
    before = _sheet(table)
    real_lock = Table.objects.lock

    def lock_after_an_entry(pk) -> None:
        """Stands in for the table lock: another phone saves deal 2 while the correction waits."""
        if not Game.objects.filter(table=table, number=2).exists():
            # Stored as the entry stores it; the lock is the one this stands in for.
            deal = Game(table=table, number=2, declarer_seat=3, contract="spades", tops=1, declarer_points=70)
            services.save_deal(deal, locked=True)
        real_lock(pk)

    monkeypatch.setattr(Table.objects, "lock", lock_after_an_entry)
    response = client.post(
        reverse("table:correct", args=[table.token]), CORRECTION | {"number": "2", "version": "1"}, follow=True
    )
    page = response.content.decode()
    assert "the sheet changed meanwhile: deal 2 is not the deal you were correcting" in page
    assert "5.5.3" in page
    # Deal 1 untouched (the stand-in's deal 2 went with the refused transaction).
    assert _sheet(table) == before


@pytest.mark.skipif(connection.vendor == "sqlite", reason="the race needs PostgreSQL's concurrent writers")
@pytest.mark.django_db(transaction=True)
def test_corrections_racing_entries_never_rewrite_the_deal_before():
    tries, rewritten = 40, []
    for attempt in range(tries):
        table = factories.table_of(4)
        factories.game(table, 1, declarer_seat=2, contract="hearts", tops=1, declarer_points=70)
        first = _sheet(table)[0]
        entry = {"number": "2", "client_id": str(uuid.uuid4()), "declarer_seat": "3", "contract": "spades"}
        entry |= {"tops_kind": "with", "tops": "1", "declarer_points": "70"}
        posts = [
            (reverse("table:sheet", args=[table.token]), entry),
            (reverse("table:correct", args=[table.token]), CORRECTION | {"number": "2", "version": "1"}),
        ]
        in_parallel(lambda i, posts=posts: Client().post(*posts[i]).status_code, 2)
        if _sheet(table)[0] != first:
            rewritten.append(attempt)
    assert rewritten == []
