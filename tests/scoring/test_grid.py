"""The office grid's service (scoring/grid.py): rows read through the phone's form, saved
through the phone's path, all in one transaction or none."""

from __future__ import annotations

import pytest

from scoring import grid
from scoring.forms import ControlEntryForm, GameForm
from scoring.models import ControlEntry, Game
from tests import factories
from tournaments.lookups import names_by_seat

pytestmark = pytest.mark.django_db


@pytest.fixture
def table():
    return factories.table_of(3, rounds_per_series=2)  # 6 deals


def rows(table, lines: dict[int, str], form_class=GameForm, start: int = 1):
    posted = {f"line-{n}": text for n, text in lines.items()}
    return grid.read_rows(table, names_by_seat(table), form_class, start, posted)


def test_a_row_is_valued_by_the_phones_form(table):
    (row,) = rows(table, {1: "1h2 75"})
    assert isinstance(row.form, GameForm) and row.error == ""
    assert (row.outcome.value, row.outcome.score, row.game.declarer_seat) == (30, 30, 1)


def test_the_rows_after_the_last_typed_one_are_left_out(table):
    assert [row.number for row in rows(table, {1: "-", 2: "2n"})] == [1, 2]
    assert rows(table, {}) == []


def test_a_refused_row_names_its_field(table):
    row = rows(table, {1: "1h2 75 b19"})[0]
    assert row.field == "bid" and row.error.startswith("3.3.2, 5.6.1: 19 is not a game value")
    assert row.problem.startswith("Deal 1, bid: 3.3.2, 5.6.1:")


def test_saving_writes_every_row_through_add_game(table):
    saved = grid.save_rows(rows(table, {1: "1h2 75", 2: "2n", 3: "-"}), entered_by="anna: office grid")
    assert (saved.created, saved.resent) == (3, 0)
    assert list(Game.objects.filter(table=table).values_list("number", "score", "entered_by")) == [
        (1, 30, "anna: office grid"),
        (2, 23, "anna: office grid"),
        (3, 0, "anna: office grid"),
    ]


def test_a_row_refused_while_saving_rolls_back_the_rows_before_it(table):
    elsewhere = factories.game(factories.table_of(3), 1, passed_out=True)
    typed = rows(table, {1: "1h2 75", 2: "2n"})
    typed[1].form.cleaned_data["client_id"] = elsewhere.client_id  # an id another table's deal holds
    with pytest.raises(grid.GridRefused) as refused:
        grid.save_rows(typed, entered_by="anna")
    assert refused.value.row.number == 2 and "5.5.3" in refused.value.row.error
    assert not Game.objects.filter(table=table).exists(), "deal 1 is rolled back with deal 2"


def test_a_row_with_an_error_saves_nothing(table):
    with pytest.raises(grid.GridRefused):
        grid.save_rows(rows(table, {1: "1h2 75", 2: "2q"}), entered_by="anna")
    assert not Game.objects.exists()


def test_the_second_list_is_saved_as_second_list_entries(table):
    grid.save_rows(rows(table, {1: "1h2 75"}, ControlEntryForm), entered_by="anna")
    assert ControlEntry.objects.get(table=table).score == 30
    assert not Game.objects.exists()
