"""The JSON guard (core/jsonfiles.py): what it lets through, and what it refuses before parsing."""

from __future__ import annotations

import io

import pytest

from core.jsonfiles import JsonFileError, Limits, is_whole, read_json, strictly_equal, version_problem

SMALL = Limits(size=1024, depth=3, values=10, text=8)


def test_a_plain_file_is_read_with_its_escapes_and_a_bom():
    body = '\ufeff{"name": "Herz \\"Dame\\"", "n": [1, -2.5e1, true, null], "\\\\": "\\u00e4"}'.encode()
    assert read_json(io.BytesIO(body), Limits(size=1024, depth=3, values=20, text=20)) == {
        "name": 'Herz "Dame"',
        "n": [1, -25.0, True, None],
        "\\": "ä",
    }


def test_what_the_parser_would_trust_is_refused_naming_the_rule():
    cases = [
        (b"x" * 1025, "The file is larger than 1 KB."),
        (b"  \n", "The file is empty."),
        (b'"\xff"', "The file is not UTF-8 text (a JSON file is)."),
        (b"[[[[1]]]]", "Line 1: nested deeper than 3 levels."),
        (b"[1,2,3,4,5,6,7,8,9,10,11]", "The file holds more than 10 values."),
        (b'{"a":\n"123456789"}', "Line 2: a text longer than 8 characters."),
        (b"[1234567890]", "Line 1: a value longer than 8 characters."),
        (b'{"a": 1, "a": 2}', "The key “a” appears twice in one object."),
        (b"[Infinity]", "Infinity is no number JSON knows."),
        (b'{"a": "\\"}', "The file is not JSON: line 1, column 7: Unterminated string"),
    ]
    for body, message in cases:
        with pytest.raises(JsonFileError) as refused:
            read_json(body, SMALL)
        assert str(refused.value).startswith(message), (body, str(refused.value))


@pytest.mark.parametrize(
    ("value", "problem"),
    [
        (1, None),
        (2, "version 2; this office reads version 1 (update the office)"),
        (True, "must be the whole number 1 (found true, true or false)"),
        (1.0, "must be the whole number 1 (found 1.0, a decimal number)"),
        ("1", 'must be the whole number 1 (found "1", a text)'),
        (None, "must be the whole number 1 (found null)"),
        ({"v": 1}, "must be the whole number 1 (found an object)"),
        ("9" * 40, 'must be the whole number 1 (found "9999999999999999999…, a text)'),
    ],
)
def test_a_version_is_the_whole_number_itself(value, problem):
    assert version_problem(value, 1) == problem


def test_strictly_equal_tells_the_kinds_apart():
    assert strictly_equal([["A", 1], {"b": None}], [["A", 1], {"b": None}])
    assert not strictly_equal([["A", True]], [["A", 1]])
    assert not strictly_equal([["A", 1.0]], [["A", 1]])
    assert not strictly_equal({"a": 1}, {"a": 1, "b": 2})
    assert not strictly_equal([1, 2], [1])
    assert is_whole(0) and not is_whole(False) and not is_whole(0.0)
