"""The oracle of the seat totals: :func:`standings.places.seat_totals_differ` names every drift.

The trigger tests (tests/scoring/test_seat_totals.py) hold ``seat_totals_differ(...) == {}``
after every kind of write; that proves something only if the helper reports a stored row
that is not the GROUP BY of its games. Here each kind of drift is made by writing the
stored rows behind the triggers' back (an UPDATE of ``scoring_seattotal`` fires nothing),
and the helper must name the seat with both sides.
"""

from __future__ import annotations

import pytest

from scoring.models import Game, SeatTotal
from standings.places import seat_totals_differ, stored_seat_totals
from tests import factories
from tournaments.models import Table

pytestmark = pytest.mark.django_db

WON = {"contract": "grand", "tops": 1, "declarer_points": 75}  # grand with 1, played 2: 48 won (5.6.1)
LOST = {"contract": "grand", "tops": 1, "declarer_points": 50}  # the same lost: -96 (5.5.1)


@pytest.fixture
def table() -> Table:
    """A table of three: seat 1 won a grand and lost one, seat 2 won one, seat 3 declared nothing."""
    table = factories.table_of(3)
    factories.game(table, 1, declarer_seat=1, **WON)
    factories.game(table, 2, declarer_seat=1, **LOST)
    factories.game(table, 3, declarer_seat=2, **WON)
    factories.game(table, 4, passed_out=True)
    return table


def tables(table: Table):
    return Table.objects.filter(pk=table.pk)


def test_the_triggers_stored_what_the_games_say(table):
    """The starting point, spelled out without the helper: seat 1 48 - 96, seat 2 48."""
    assert sorted(stored_seat_totals(tables(table))) == [(table.pk, 1, -48, 1, 1), (table.pk, 2, 48, 1, 0)]
    assert seat_totals_differ(tables(table)) == {}


@pytest.mark.parametrize(
    ("column", "stored"),
    [("points", (-47, 1, 1)), ("won", (-48, 2, 1)), ("lost", (-48, 1, 0))],
)
def test_a_wrong_number_of_the_declarer_s_seat_is_named_with_both_sides(table, column, stored):
    row = SeatTotal.objects.filter(table=table, number=1)
    row.update(**{column: dict(zip(("points", "won", "lost"), stored, strict=True))[column]})
    assert seat_totals_differ(tables(table)) == {(table.pk, 1): (stored, (-48, 1, 1))}


def test_a_missing_row_is_a_drift_of_the_whole_seat(table):
    SeatTotal.objects.filter(table=table, number=2).delete()
    assert seat_totals_differ(tables(table)) == {(table.pk, 2): ((0, 0, 0), (48, 1, 0))}


def test_a_row_for_a_seat_that_declared_nothing_is_a_drift(table):
    SeatTotal.objects.create(table=table, number=3, points=48, won=1, lost=0)
    assert seat_totals_differ(tables(table)) == {(table.pk, 3): ((48, 1, 0), (0, 0, 0))}


def test_points_kept_at_the_wrong_seat_name_both_seats(table):
    """What a trigger that forgot the declarer's seat on an update would leave behind."""
    Game.objects.filter(table=table, number=3).update(declarer_seat=3)
    # Put the stored rows back as they were before the update: the drift of a trigger that did nothing.
    SeatTotal.objects.filter(table=table, number=3).delete()
    SeatTotal.objects.update_or_create(table=table, number=2, defaults={"points": 48, "won": 1, "lost": 0})
    assert seat_totals_differ(tables(table)) == {
        (table.pk, 2): ((48, 1, 0), (0, 0, 0)),
        (table.pk, 3): ((0, 0, 0), (48, 1, 0)),
    }


def test_a_row_of_zeros_is_no_drift(table):
    """Games deleted leave their row at zero (the triggers subtract, never delete): nothing to report."""
    SeatTotal.objects.create(table=table, number=3)
    assert seat_totals_differ(tables(table)) == {}


def test_only_the_tables_asked_about_are_checked(table):
    other = factories.table_of(3)
    factories.game(other, 1, declarer_seat=1, **WON)
    SeatTotal.objects.filter(table=other).update(points=0)
    assert seat_totals_differ(tables(table)) == {}
    assert seat_totals_differ(tables(other)) == {(other.pk, 1): ((0, 1, 0), (48, 1, 0))}


def test_moving_a_game_to_another_declarer_moves_its_stored_numbers(table):
    """The update trigger on the declarer's seat alone (a referee's correction), read without the helper."""
    Game.objects.filter(table=table, number=3).update(declarer_seat=3)
    stored = {(seat, p, w, x) for _t, seat, p, w, x in stored_seat_totals(tables(table))}
    assert stored == {(1, -48, 1, 1), (2, 0, 0, 0), (3, 48, 1, 0)}
    assert seat_totals_differ(tables(table)) == {}
