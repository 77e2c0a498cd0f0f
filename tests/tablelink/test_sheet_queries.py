"""The table link's pages read their lists without the fields no sheet shows
(GameQuerySet.for_sheet): a page that still used one of them per row would cost one
query per deal, the N+1 the deferral would hide."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from referees.corrections import correct_game, void_game
from scoring.models import Game
from scoring.models.deals import UNSHOWN_FIELDS
from tests import factories

pytestmark = pytest.mark.django_db

HEARTS = {"declarer_seat": 1, "contract": "hearts", "tops": 2, "declarer_points": 80}


def sheet_queries(client, deals: int, *, second_list: bool) -> list[str]:
    """The queries of the page of a sheet of ``deals`` deals whose second list differs at
    deal 1, a referee corrected deal 2 and voided deal 3."""
    table = factories.table_of(3)
    referee = factories.user()
    for number in range(1, deals + 1):
        factories.game(table, number, **HEARTS)
        factories.control_entry(table, number, **(HEARTS | ({"declarer_points": 40} if number == 1 else {})))
    second = Game.objects.get(table=table, number=2)
    correct_game(second.pk, expected_version=second.version, changes={"declarer_points": 50}, user=referee, reason="r")
    third = Game.objects.get(table=table, number=3)
    void_game(third.pk, expected_version=third.version, user=referee, reason="r")
    token = table.control_token if second_list else table.token
    with CaptureQueriesContext(connection) as captured:
        response = client.get(reverse("table:sheet", args=[token]))
    assert response.status_code == 200
    return [query["sql"] for query in captured]


@pytest.mark.parametrize("second_list", [False, True])
def test_a_sheet_s_queries_do_not_grow_with_its_deals(client, second_list):
    few, many = sheet_queries(client, 4, second_list=second_list), sheet_queries(client, 12, second_list=second_list)
    assert len(many) == len(few), "\n".join(many)


@pytest.mark.parametrize("second_list", [False, True])
def test_no_field_a_sheet_does_not_show_is_read_deal_by_deal(client, second_list):
    for sql in sheet_queries(client, 6, second_list=second_list):
        loads_one = " WHERE " in sql and '."id" = ' in sql and "LIMIT" in sql
        assert not (loads_one and any(f'."{name}"' in sql.split(" FROM ")[0] for name in UNSHOWN_FIELDS)), sql


@pytest.mark.parametrize("second_list", [False, True])
def test_the_other_list_is_read_without_the_joins_of_its_ordering(client, second_list):
    """scoring.lists.compare pairs the lists by deal number: the other list's query needs no
    order, and the default one (table, then series and tournament) joined three tables."""
    other = "scoring_game" if second_list else "scoring_controlentry"
    reads = [sql for sql in sheet_queries(client, 4, second_list=second_list) if f'FROM "{other}"' in sql]
    assert reads and not any('"tournaments_tournament"' in sql for sql in reads), "\n".join(reads)
