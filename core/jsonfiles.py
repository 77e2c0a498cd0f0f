"""Reading a JSON file someone sent defensively: the bytes are checked before the parser sees them.

Python's parser trusts its input: a body of 100,000 ``[`` ends in a RecursionError, a
number of a million digits costs seconds, a key given twice silently keeps the second
value, and ``NaN`` is taken as a number. So :func:`read_json` reads at most
``Limits.size`` bytes (a capped read: a larger body is never held whole), decodes strict
UTF-8, and scans the text once (strings skipped) for its nesting depth and the number of
its values before :func:`json.loads` runs; the parse then refuses duplicate keys, the
non-standard constants and over-long strings and numbers. Every refusal is a
:class:`JsonFileError` whose message names the rule, for the person who sent the file;
nothing here writes anything.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import BinaryIO

from django.utils.translation import gettext as _

KB = 1024


class JsonFileError(ValueError):
    """The file cannot be read safely as JSON; the message says why."""


@dataclass(frozen=True)
class Limits:
    """What one JSON file may hold."""

    size: int = 512 * KB
    #: Arrays and objects inside each other.
    depth: int = 8
    #: Values of any kind, and the keys of objects.
    values: int = 20_000
    #: Characters of one string or one number.
    text: int = 1_000


def read_json(source: bytes | BinaryIO, limits: Limits = Limits()) -> object:
    """The file's JSON value, or a :class:`JsonFileError` naming what it breaks."""
    data = source if isinstance(source, bytes) else source.read(limits.size + 1)
    if len(data) > limits.size:
        raise JsonFileError(_("The file is larger than %(kb)s KB.") % {"kb": limits.size // KB})
    if not data.strip():
        raise JsonFileError(_("The file is empty."))
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise JsonFileError(_("The file is not UTF-8 text (a JSON file is).")) from None
    _scan(text, limits)
    try:
        return json.loads(text, object_pairs_hook=_no_twins, parse_constant=_no_constant)
    except json.JSONDecodeError as error:
        raise JsonFileError(
            _("The file is not JSON: line %(line)s, column %(column)s: %(problem)s")
            % {"line": error.lineno, "column": error.colno, "problem": error.msg}
        ) from None
    except _Refused as refused:
        raise JsonFileError(str(refused)) from None


class _Refused(Exception):
    pass


def _scan(text: str, limits: Limits) -> None:
    """Depth, number of values and length of each string or number, strings skipped."""
    depth = values = 0
    index, end = 0, len(text)
    line = 1
    while index < end:
        char = text[index]
        if char == '"':
            close = _string_end(text, index)
            if close - index - 1 > limits.text:
                raise JsonFileError(
                    _("Line %(line)s: a text longer than %(max)s characters.") % {"line": line, "max": limits.text}
                )
            values += 1
            index = close + 1
            continue
        if char in "[{":
            depth += 1
            values += 1
            if depth > limits.depth:
                raise JsonFileError(
                    _("Line %(line)s: nested deeper than %(max)s levels.") % {"line": line, "max": limits.depth}
                )
        elif char in "]}":
            depth -= 1
        elif char == ",":
            pass
        elif char == "\n":
            line += 1
        elif not char.isspace() and char != ":":
            start = index
            while index < end and text[index] not in ' \t\r\n,:[]{}"':
                index += 1
            if index - start > limits.text:
                raise JsonFileError(
                    _("Line %(line)s: a value longer than %(max)s characters.") % {"line": line, "max": limits.text}
                )
            values += 1
            continue
        if values > limits.values:
            raise JsonFileError(_("The file holds more than %(max)s values.") % {"max": limits.values})
        index += 1


def _string_end(text: str, start: int) -> int:
    """The index of the quote that closes the string opening at ``start`` (the end if none:
    the parser then says where the string is not closed)."""
    index = start + 1
    while True:
        index = text.find('"', index)
        if index == -1:
            return len(text)
        backslashes = 0
        while text[index - 1 - backslashes] == "\\":
            backslashes += 1
        if backslashes % 2 == 0:
            return index
        index += 1


def _no_twins(pairs: list[tuple[str, object]]) -> dict:
    found: dict = {}
    for key, value in pairs:
        if key in found:
            raise _Refused(_("The key “%(key)s” appears twice in one object.") % {"key": key[:60]})
        found[key] = value
    return found


def _no_constant(name: str) -> None:
    raise _Refused(_("%(name)s is no number JSON knows.") % {"name": name})


# --- strict types: what a reader of the parsed value checks ------------------------------------
# Python's JSON values compare loosely: ``True == 1`` and ``1.0 == 1``, so a check by equality
# takes ``"version": true`` for version 1. A reader checks the kind first, with these.


def is_whole(value: object) -> bool:
    """A JSON whole number: an int and not a bool (``true`` is no number, ``1.0`` no whole one)."""
    return isinstance(value, int) and not isinstance(value, bool)


def found(value: object) -> str:
    """What was found instead, for a message: ``found "1", a text``; ``found 1.0, a decimal number``."""
    if isinstance(value, bool):
        kind = _("true or false")
    elif isinstance(value, int):
        kind = _("a whole number")
    elif isinstance(value, float):
        kind = _("a decimal number")
    elif isinstance(value, str):
        kind = _("a text")
    elif isinstance(value, list):
        return _("found a list")
    elif isinstance(value, dict):
        return _("found an object")
    elif value is None:
        return _("found null")
    else:
        return _("found %(kind)s") % {"kind": type(value).__name__}
    shown = json.dumps(value, ensure_ascii=False)
    shown = shown if len(shown) <= 24 else shown[:20] + "…"
    return _("found %(value)s, %(kind)s") % {"value": shown, "kind": kind}


def version_problem(value: object, version: int) -> str | None:
    """Why ``value`` is not the format version ``version`` this office reads (None: it is)."""
    if not is_whole(value):
        return _("must be the whole number %(version)s (%(found)s)") % {"version": version, "found": found(value)}
    if value != version:
        return _("version %(found)s; this office reads version %(version)s (update the office)") % {
            "found": str(value)[:20],
            "version": version,
        }
    return None


def strictly_equal(a: object, b: object) -> bool:
    """Equal as JSON values, kinds included (``[1]`` is not ``[true]`` nor ``[1.0]``)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, list):
        return len(a) == len(b) and all(strictly_equal(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(strictly_equal(a[k], b[k]) for k in a)
    return a == b
