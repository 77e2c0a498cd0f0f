"""What a token opens (tablelink.links.open_link): the table, its series and its tournament as
the ORM reads them, the players by seat, which list; in one query, built once per link."""

from __future__ import annotations

import pytest
from django.http import Http404
from django.utils import timezone

from tablelink.links import open_link
from tests import factories
from tournaments.models import Series, Table, Tournament

pytestmark = pytest.mark.django_db


def fields_of(instance) -> dict:
    return {field.attname: getattr(instance, field.attname) for field in type(instance)._meta.concrete_fields}


@pytest.mark.parametrize("size", [3, 4])
def test_the_table_series_and_tournament_are_the_orms(size, django_assert_num_queries):
    table = factories.table_of(size)
    Series.objects.filter(pk=table.series_id).update(status=Series.Status.RUNNING)
    with django_assert_num_queries(1):
        link = open_link(table.token)
    assert fields_of(link.table) == fields_of(Table.objects.get(pk=table.pk))
    assert fields_of(link.table.series) == fields_of(Series.objects.get(pk=table.series_id))
    assert fields_of(link.table.series.tournament) == fields_of(Tournament.objects.get(pk=table.series.tournament_id))
    # Typed as the ORM types them (SQLite stores booleans as integers, times as text).
    for instance in (link.table, link.table.series, link.table.series.tournament):
        for field in type(instance)._meta.concrete_fields:
            value = getattr(instance, field.attname)
            if value is not None and field.get_internal_type() == "BooleanField":
                assert value is True or value is False, field
            if value is not None and field.get_internal_type() == "DateTimeField":
                assert timezone.is_aware(value), field
    assert link.players == {n: f"Seat{n}" for n in range(1, size + 1)}
    assert link.control is False
    with django_assert_num_queries(0):  # the series and tournament come with it
        assert link.table.series.tournament.pk == table.series.tournament_id


def test_the_second_lists_token_opens_the_same_table_as_its_list():
    table = factories.table_of(3)
    link = open_link(table.control_token)
    assert link.control is True and link.token == table.control_token
    assert link.table.pk == table.pk and link.players == {1: "Seat1", 2: "Seat2", 3: "Seat3"}


def test_a_table_without_seats_opens_and_a_wrong_token_is_404():
    table = factories.table_of(3)
    table.seats.all().delete()
    link = open_link(table.token)
    assert link.table.pk == table.pk and link.players == {}
    with pytest.raises(Http404):
        open_link("no-such-token")
