"""Queries compiled once (scoring.compiled): the ORM's own SQL, run with each call's values."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.models import Q
from django.test.utils import CaptureQueriesContext

from scoring.compiled import Compiled
from scoring.models import Game
from tests import factories

pytestmark = pytest.mark.django_db


def _pk(pk: int, *, connection) -> list[int]:
    return [int(pk)]


def numbers_of(table_id: int):
    return Game.objects.filter(table_id=table_id).order_by("number").values_list("number", "score")


def test_the_rows_are_the_orm_s_for_each_call_s_values():
    first, second = factories.table_of(3), factories.table_of(3)
    factories.game(first, 1, declarer_seat=1, contract="hearts", tops=1, declarer_points=70)
    factories.game(second, 1, passed_out=True)
    factories.game(second, 2, declarer_seat=2, contract="grand", tops=2, declarer_points=80)
    query = Compiled(numbers_of, (-7,), _pk)
    for table in (first, second, first):
        assert query.rows(table.pk) == list(numbers_of(table.pk))
    assert query.rows(-1) == []


def test_it_is_compiled_once_and_sends_the_orm_s_statement():
    table = factories.table_of(3)
    calls = []

    def build(table_id: int):
        calls.append(table_id)
        return numbers_of(table_id)

    query = Compiled(build, (-7,), _pk)
    with CaptureQueriesContext(connection) as captured:
        query.rows(table.pk)
        query.rows(table.pk + 1)
    assert calls == [-7]  # built once, with the placeholder
    expected = numbers_of(table.pk).query.sql_with_params()[0]
    assert [q["sql"] for q in captured] == [expected % (table.pk,), expected % (table.pk + 1,)]


def test_it_is_compiled_again_when_what_it_rests_on_changes():
    table = factories.table_of(3)
    variant = ["first"]
    calls = []

    def build(table_id: int):
        calls.append(variant[0])
        return numbers_of(table_id)

    query = Compiled(build, (-7,), _pk, variant=lambda: variant[0])
    query.rows(table.pk)
    variant[0] = "second"
    query.rows(table.pk)
    query.rows(table.pk)
    assert calls == ["first", "second"]


def test_a_placeholder_not_found_exactly_once_is_refused_before_anything_runs():
    def twice(table_id: int):
        return Game.objects.filter(Q(table_id=table_id) | Q(table__series_id=table_id)).values_list("number")

    with pytest.raises(ValueError, match="found 2 times"):
        Compiled(twice, (-7,), _pk).rows(1)
    with pytest.raises(ValueError, match="found 0 times"):
        Compiled(lambda table_id: Game.objects.values_list("number"), (-7,), _pk).rows(1)


def test_with_the_orm_s_converters_the_values_are_typed_as_the_orm_types_them():
    table = factories.table_of(3)
    factories.game(table, 1, passed_out=True)
    factories.game(table, 2, declarer_seat=2, contract="grand", tops=2, declarer_points=80)

    def build(table_id: int):
        return Game.objects.filter(table_id=table_id).order_by("number").values_list("passed_out", "won", "created_at")

    assert Compiled(build, (-7,), _pk, orm_converters=True).rows(table.pk) == list(build(table.pk))
