"""signoff.pins: four digits per seat, derived from the link's token and the SECRET_KEY."""

from __future__ import annotations

import re

import pytest

from signoff.pins import pin_matches, seat_pin
from tests import factories
from tests.referees.helpers import open_table
from tournaments.models import new_token

pytestmark = pytest.mark.django_db


def test_a_pin_is_four_digits_and_stable():
    table = open_table(4)
    pins = [seat_pin(table, seat) for seat in range(1, 5)]
    assert all(re.fullmatch(r"\d{4}", pin) for pin in pins)
    assert pins == [seat_pin(table, seat) for seat in range(1, 5)]
    assert pin_matches(table, 2, pins[1]) and pin_matches(table, 2, f" {pins[1]} ")
    assert not pin_matches(table, 2, "") and not pin_matches(table, 2, None)


def test_reissuing_the_link_changes_the_pins():
    table = open_table(3)
    before = [seat_pin(table, seat) for seat in (1, 2, 3)]
    table.token = new_token()
    assert [seat_pin(table, seat) for seat in (1, 2, 3)] != before


def test_the_pins_depend_on_the_secret_key(settings):
    table = open_table(3)
    before = [seat_pin(table, seat) for seat in (1, 2, 3)]
    settings.SECRET_KEY = "another-secret-key-for-this-test-only-0123456789"
    assert [seat_pin(table, seat) for seat in (1, 2, 3)] != before


def test_pins_spread_over_the_four_digits():
    class Fake:
        def __init__(self, token):
            self.token = token

    pins = {seat_pin(Fake(f"token-{i}"), 1) for i in range(500)}
    assert len(pins) > 450  # no small set of PINs to guess from


@pytest.mark.django_db
@pytest.mark.parametrize(
    "typed", ["000\u0660", "\u0661\u0662\u0663\u0664", "12\uff134", "\uff21\uff22\uff23\uff24", "\udc80"]
)
def test_a_pin_of_other_digits_is_wrong_not_an_error(typed):
    """Found by the fuzz test: compare_digest raised TypeError for non-ASCII text (a 500)."""
    table = factories.table_of(4)
    assert pin_matches(table, 1, typed) is False
