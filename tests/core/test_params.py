"""Numbers from a query string: only short ASCII digit strings are numbers."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.params import MAX_DIGITS, number_param


@pytest.mark.parametrize(("value", "number"), [("1", 1), ("07", 7), ("999999", 999_999)])
def test_ascii_digits_are_a_number(value, number):
    assert number_param(value) == number


@pytest.mark.parametrize("value", [None, "", " 1", "1 ", "-1", "+1", "1.0", "1e3", "²", "٣", "1" * (MAX_DIGITS + 1)])
def test_anything_else_is_none(value):
    assert number_param(value) is None


@given(st.text())
def test_never_raises_and_only_digits_pass(value):
    number = number_param(value)
    assert number is None or (str(number) == value.lstrip("0") or (number == 0 and set(value) == {"0"}))
