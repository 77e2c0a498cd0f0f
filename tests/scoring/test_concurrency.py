"""Two phones at once, for real: two threads with their own database connections.

A correction carries the version the phone saw (Game.version); entries serialise per
table (scoring/entry.py). Whoever comes second is told, and nothing is overwritten
silently. Runs on SQLite and PostgreSQL (DATABASE_URL).
"""

from __future__ import annotations

import threading
import time
import uuid

import pytest
from django.db import connection, connections, transaction
from django.test import Client
from django.urls import reverse

from scoring import entry, grid
from scoring.forms import GameForm
from scoring.models import Game
from tests import factories
from tests.threads import in_parallel
from tournaments.lookups import names_by_seat

pytestmark = pytest.mark.django_db(transaction=True)

GAME = {"declarer_seat": "2", "contract": "grand", "tops_kind": "with", "tops": "1"}


def at_once(*posts):
    """Run each (url, data) post in its own thread, released together; the responses in order."""
    clients = [Client() for _ in posts]
    return in_parallel(lambda i: clients[i].post(*posts[i]), len(posts))


@pytest.mark.parametrize("attempt", range(3))
def test_two_corrections_of_the_same_deal_one_wins_the_other_is_told(attempt):
    table = factories.table_of(3)
    factories.game(table, 1, declarer_seat=2, contract="grand", tops=1, declarer_points=75)
    url = reverse("table:correct", args=[table.token])
    seen = {"number": "1", "version": "1"}
    first, second = at_once(
        (url, GAME | seen | {"declarer_points": "80"}),
        (url, GAME | seen | {"declarer_points": "40"}),
    )
    statuses = sorted([first.status_code, second.status_code])
    assert statuses == [302, 422]
    loser = first if first.status_code == 422 else second
    assert "this deal was changed on another device meanwhile" in loser.content.decode()
    game = Game.objects.get(table=table)
    assert game.version == 2
    winner_points = 80 if first.status_code == 302 else 40
    assert game.declarer_points == winner_points
    assert game.won == (winner_points > 60)


@pytest.mark.parametrize("attempt", range(3))
def test_two_entries_of_the_same_deal_make_one_game(attempt):
    table = factories.table_of(3)
    url = reverse("table:sheet", args=[table.token])
    first, second = at_once(
        (url, GAME | {"number": "1", "client_id": str(uuid.uuid4()), "declarer_points": "80"}),
        (url, GAME | {"number": "1", "client_id": str(uuid.uuid4()), "declarer_points": "40"}),
    )
    # The later one is told the deal is taken (409) and gets the form for deal 2.
    assert sorted([first.status_code, second.status_code]) == [302, 409]
    loser = first if first.status_code == 409 else second
    page = loser.content.decode()
    assert "Deal 1 was entered on another device" in page and 'name="number" value="2"' in page
    game = Game.objects.get(table=table)
    assert game.declarer_points == (80 if first.status_code == 302 else 40)


@pytest.mark.parametrize("attempt", range(5))
def test_the_same_entry_sent_twice_at_once_is_saved_once(attempt):
    """Regression: the second of two simultaneous sends was refused ("deal 1 is already
    entered") instead of being recognised as the same entry."""
    table = factories.table_of(3)
    url = reverse("table:sheet", args=[table.token])
    data = GAME | {"number": "1", "client_id": str(uuid.uuid4()), "declarer_points": "80"}
    first, second = at_once((url, data), (url, data))
    assert [first.status_code, second.status_code] == [302, 302]
    assert Game.objects.filter(table=table).count() == 1


def test_the_office_grid_and_a_phone_at_once_both_save(monkeypatch):
    """The office grid saves its rows in one transaction, which holds SQLite's write lock
    from its start (IMMEDIATE); a phone's entry meanwhile holds the process's writer lock
    (scoring.entry._ONE_WRITER) while it waits for SQLite's. Had the grid's rows waited for
    that lock too, each would wait for the other until SQLite's busy timeout failed the
    phone's deal ("database is locked", 20 s in the hall; 10 s here)."""
    if connection.vendor != "sqlite":
        pytest.skip("the process's writer lock is SQLite's (PostgreSQL locks each table's row)")
    monkeypatch.setitem(connections.settings["default"]["OPTIONS"], "timeout", 10)  # each thread's connection
    sheet, phone_table = factories.table_of(3, rounds_per_series=2), factories.table_of(3)
    typed = grid.read_rows(sheet, names_by_seat(sheet), GameForm, 1, {"line-1": "1h2 75", "line-2": "2n"})
    phone = factories.phone_form(phone_table)
    grid_began = threading.Event()
    phone_holds_the_writer_lock: list[bool] = []

    def office(_index: int) -> object:
        with transaction.atomic():  # the grid's transaction: SQLite's write lock from here
            grid_began.set()
            for _ in range(3000):  # bounds a hang only (30 s): left as soon as the phone holds it
                if entry._ONE_WRITER.locked():
                    break
                time.sleep(0.01)
            phone_holds_the_writer_lock.append(entry._ONE_WRITER.locked())
            time.sleep(0.2)  # the phone is on its way into SQLite's lock, which this transaction holds
            return grid.save_rows(typed, entered_by="anna: office grid")

    def phone_entry(_index: int) -> object:
        grid_began.wait(5)
        return entry.add_game(phone, entered_by="phone")

    # Had they waited for each other, the phone's deal would fail with "database is locked"
    # after the busy timeout, and in_parallel raises that: no time is measured here.
    saved_grid, saved_phone = in_parallel(lambda i: (office, phone_entry)[i](i), 2)
    assert phone_holds_the_writer_lock == [True]  # the race the test is about did happen
    assert saved_grid.created == 2 and saved_phone.created
    assert Game.objects.filter(table=sheet).count() == 2 and Game.objects.filter(table=phone_table).count() == 1
