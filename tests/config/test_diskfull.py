"""config.diskfull: a write refused for lack of space is 507 and one sentence saying
so, one line in the log without a traceback; every other error is left to Django."""

from __future__ import annotations

import logging
import sqlite3

import pytest
from django.http import HttpResponse
from django.test import RequestFactory

from config.diskfull import DiskFull
from scoring import entry
from scoring.models import Game
from tests import factories
from tests.core.test_diskspace import real_sqlite_full, wrapped
from tests.tablelink.test_table_sheet_view import post_game


def middleware() -> DiskFull:
    return DiskFull(lambda request: HttpResponse("ok"))


@pytest.mark.django_db
def test_a_deal_the_full_disk_refused_is_507_and_stays_on_the_phone(client, monkeypatch, tmp_path):
    """SQLite's real "database or disk is full", raised where the table link saves the deal."""
    full = wrapped(real_sqlite_full(tmp_path))

    def no_room(form, *, entered_by):
        raise full

    monkeypatch.setattr(entry, "add_game", no_room)
    table = factories.table_of(3)
    response = post_game(client, table, 1, htmx=True, declarer_seat=1, contract="grand", tops=1, declarer_points=70)
    assert response.status_code == 507
    said = "The office could not store it: its disk is full. The deal stays on this phone."
    assert said in response.content.decode()
    assert not Game.objects.exists()


def test_a_director_page_says_free_space_and_try_again(tmp_path, caplog):
    request = RequestFactory().post("/t/1/series/2/finish/")
    with caplog.at_level(logging.WARNING, logger="office.diskfull"):
        response = middleware().process_exception(request, wrapped(real_sqlite_full(tmp_path)))
    assert response.status_code == 507
    page = response.content.decode()
    assert "The office&#x27;s disk is full: free space (delete old files) and try again." in page
    assert "Something went wrong" not in page
    (line,) = caplog.records
    assert line.getMessage() == "The disk is full: POST ? stored nothing (database or disk is full)."
    assert line.exc_info is None


@pytest.mark.parametrize("error", [sqlite3.OperationalError("database is locked"), RuntimeError("bug")])
def test_any_other_error_is_left_to_django(error):
    assert middleware().process_exception(RequestFactory().get("/"), error) is None
