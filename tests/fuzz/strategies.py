"""Hypothesis strategies for bad input: junk strings, numbers out of range, repeated keys."""

from __future__ import annotations

import html
import os
import re

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from skat import rules

# Function-scoped fixtures (client, world) are shared by the examples of one test on
# purpose: the state they accumulate (games entered, players registered) is more input.
# FUZZ_EXAMPLES: make test and CI's first database run 40 derandomized examples (the same
# on every run, so CI never fails by luck), make test-fast the first 8, CI's second database
# (PostgreSQL) 10: every example ran on SQLite just before; there they check the SQL
# PostgreSQL answers, within CI's time (an explicit max_examples here is not shortened by
# the second-database profile). A deeper search with fresh examples:
# HYPOTHESIS_PROFILE=explore FUZZ_EXAMPLES=500.
FUZZ = settings(
    max_examples=int(os.environ.get("FUZZ_EXAMPLES", "40")),
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

NASTY = [
    "",
    " ",
    "on",
    "off",
    "true",
    "null",
    "None",
    "NaN",
    "inf",
    "-0",
    "1e5",
    "0x10",
    "1.5",
    "٣",  # an Arabic-Indic digit: isdigit() and int() accept it
    "²",  # a superscript: isdigit() accepts it, int() does not
    "\uff11\uff12",  # fullwidth digits
    "9" * 40,
    "1" * 5000,  # int() refuses more than 4,300 digits with a ValueError
    "-" + "9" * 20,
    "\x00",
    "a\x00b",
    "<script>alert(1)</script>",
    "' OR 1=1 --",
    "ü" * 300,
]

junk = st.one_of(
    st.sampled_from(NASTY),
    st.text(max_size=30),
    st.integers(-(10**12), 10**12).map(str),
)


def small_int(low: int, high: int) -> st.SearchStrategy[str]:
    return st.one_of(st.integers(low, high).map(str), junk)


def value(strategy: st.SearchStrategy[str]) -> st.SearchStrategy[str | list[str]]:
    """A field's value, sometimes sent twice (a repeated key) or as the junk."""
    return st.one_of(strategy, strategy, strategy, st.lists(strategy, min_size=2, max_size=3))


def form_data(fields: dict[str, st.SearchStrategy]) -> st.SearchStrategy[dict]:
    """Any subset of the form's fields with any of their values, plus a stray key now and then."""
    return st.fixed_dictionaries(
        {}, optional={name: value(strategy) for name, strategy in fields.items()} | {"stray": junk}
    )


CONTRACTS = [c.value for c in rules.Contract]
BIDS = [str(v) for v in sorted(rules.GAME_VALUES)]

GAME_FIELDS = {
    "number": small_int(-2, 40),
    "client_id": st.one_of(st.uuids().map(str), junk),
    "version": small_int(-1, 4),
    "passed_out": st.one_of(st.sampled_from(["on", "", "false"]), junk),
    "declarer_seat": small_int(0, 5),
    "contract": st.one_of(st.sampled_from(CONTRACTS), junk),
    "tops_kind": st.one_of(st.sampled_from(["with", "without"]), junk),
    "tops": small_int(-1, 12),
    "hand": st.sampled_from(["on", ""]),
    "schneider_announced": st.sampled_from(["on", ""]),
    "schwarz_announced": st.sampled_from(["on", ""]),
    "ouvert": st.sampled_from(["on", ""]),
    "bid": st.one_of(st.sampled_from(BIDS), junk),
    "declarer_points": small_int(-5, 125),
    "opponents_points": small_int(-5, 125),
    "declarer_tricks": small_int(-1, 11),
}
_plausible_suit_or_grand = st.fixed_dictionaries(
    {
        "contract": st.sampled_from(["diamonds", "hearts", "spades", "clubs", "grand"]),
        "tops_kind": st.sampled_from(["with", "without"]),
        "tops": st.integers(1, 4).map(str),
        "declarer_points": st.integers(0, 120).map(str),
    },
    optional={"hand": st.just("on"), "schneider_announced": st.just("on"), "bid": st.sampled_from(BIDS[:6])},
)
_plausible_null = st.fixed_dictionaries(
    {"contract": st.just("null"), "declarer_tricks": st.sampled_from(["0", "0", "1"])},
    optional={"hand": st.just("on"), "ouvert": st.just("on")},
)
_plausible = st.tuples(
    st.sampled_from(["1", "2", "3"]),
    st.uuids().map(str),
    st.sampled_from(["1", "2", "3"]),
    st.one_of(_plausible_suit_or_grand, _plausible_null, st.just({"passed_out": "on"})),
).map(lambda t: {"number": t[0], "client_id": t[1], "declarer_seat": t[2], **t[3]})
# A game the engine may well accept, the same with one field replaced by junk, or any
# subset of fields with any values.
game_data = st.one_of(
    _plausible,
    st.tuples(_plausible, st.sampled_from(list(GAME_FIELDS)), junk).map(lambda t: {**t[0], t[1]: t[2]}),
    form_data(GAME_FIELDS),
)

PARAGRAPH = re.compile(r"\b\d+\.\d+(\.\d+)*\b")


def assert_errors_name_their_field(form, page: str, *, labelled: bool = False) -> None:
    """Every error is on the page: a rule error names its paragraph; a field's error is
    shown at the field or, where it is not next to its input (a hidden field, the
    preview: ``labelled``), as "label: error"."""
    assert form is not None
    for name, errors in form.errors.items():
        for error in errors:
            assert html.escape(str(error)) in page, (name, error)
            if name == "__all__":
                assert PARAGRAPH.search(str(error)) or any(f in str(error) for f in form.fields), error
                continue
            assert name in form.fields, name
            if labelled or form[name].is_hidden:
                assert html.escape(f"{form[name].label}: {error}") in page, (name, error)


def near(base: dict, fields: dict[str, st.SearchStrategy]) -> st.SearchStrategy[dict]:
    """``base`` (valid data) with up to two of its fields replaced by the fuzzer's values."""
    return st.lists(st.sampled_from(sorted(fields)), max_size=2, unique=True).flatmap(
        lambda keys: st.fixed_dictionaries({k: fields[k] for k in keys}).map(lambda changed: base | changed)
    )
