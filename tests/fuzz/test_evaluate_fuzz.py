"""`manage.py evaluate` fed random and malformed JSON Lines and sheets.

Never a traceback: every line gets one answer, a game or
``{"error": "<field>: <message> (<paragraph>)"}``; input that is not JSON Lines exits 2
with nothing on stdout; the output is always valid UTF-8 JSON.
"""

from __future__ import annotations

import io
import json
import re
import tempfile
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from hypothesis import assume, example, given
from hypothesis import strategies as st

from skat.rules import GAME_KEYS

from .strategies import FUZZ, NASTY

# "<field>: <message> (<paragraph>[, <paragraph>])"; a sheet's game errors start "game N: ".
ERROR = re.compile(r"^(game \d+: )?[^\s:][^:]*: .+ \(\d+(\.\d+)+(, \d+(\.\d+)+)*\)$", re.DOTALL)
ANSWER_KEYS = {"won", "value", "score", "overbid", "multiplier"}

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**20), 10**20),
    st.integers(-2, 130),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=12),
    st.sampled_from(["grand", "null", "hearts", "Clubs ", "GRAND", *NASTY]),
)
json_values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=6,
)
junk_games = st.fixed_dictionaries(
    {},
    optional={key: json_values for key in GAME_KEYS} | {key: json_values for key in ("declarer", "passed", "x")},
)
bids = st.sampled_from([18, 20, 22, 23, 24, 27, 30, 33, 35, 36, 40, 44, 46, 48, 50, 59, 60, 72, 96, 120])
suit_or_grand = st.fixed_dictionaries(
    {
        "contract": st.sampled_from(["diamonds", "hearts", "spades", "clubs", "grand"]),
        "tops": st.integers(1, 4),
        "declarer_points": st.integers(0, 120),
    },
    optional={"hand": st.booleans(), "schneider_announced": st.booleans(), "bid": bids},
)
null = st.fixed_dictionaries(
    {"contract": st.just("null"), "declarer_tricks": st.integers(0, 10)},
    optional={"hand": st.booleans(), "ouvert": st.booleans(), "bid": bids},
)
plausible = st.one_of(suit_or_grand, null)
# A plausible game with one field replaced by anything.
mutated = st.tuples(plausible, st.sampled_from([*GAME_KEYS, "declarer"]), json_values).map(
    lambda t: {**t[0], t[1]: t[2]}
)
games = st.one_of(plausible, mutated, junk_games)


def run(*args: str, text: str) -> tuple[int, str]:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "input"
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
        out = io.StringIO()
        try:
            call_command("evaluate", *[a if a != "FILE" else str(path) for a in args], stdout=out)
            code = 0
        except SystemExit as exit_:
            code = exit_.code
        except CommandError as error:
            code = error.returncode
            assert str(error)
        output = out.getvalue()
    output.encode("utf-8")  # strict: no lone surrogates reach stdout
    return code, output


def dumps(value) -> str:
    return json.dumps(value, ensure_ascii=bool(value) and isinstance(value, dict) and len(value) % 2 == 0)


def assert_error(answer: dict) -> None:
    assert set(answer) == {"error"}
    assert ERROR.match(answer["error"]), answer["error"]


@FUZZ
@given(lines=st.lists(st.one_of(games.map(dumps), json_values.map(dumps), st.just(""), st.just("   ")), max_size=6))
@example(lines=['{"contract": "grand", "\\ud800": 1}', '{"contract": NaN}', '{"tops": 1e400}'])
@example(lines=['{"contract": {"\x85": null}}', '{"contract": "grand\u2028"}\r'])  # regression: splitlines()
def test_json_lines(lines):
    code, output = run("FILE", text="\n".join(lines))
    answers = [json.loads(line) for line in output.splitlines()]
    assert len(answers) == sum(1 for line in lines if line.strip())
    errors = 0
    for answer in answers:
        if "error" in answer:
            errors += 1
            assert_error(answer)
        else:
            assert set(answer) == ANSWER_KEYS
            assert isinstance(answer["value"], int) and answer["value"] > 0
    assert code == (1 if errors else 0)


def is_json(text: str) -> bool:
    try:
        json.loads(text)
    except ValueError:
        return False
    return True


@FUZZ
@given(good=st.lists(games.map(dumps), max_size=3), bad=st.text(min_size=1, max_size=20))
def test_malformed_lines_exit_2_with_nothing_on_stdout(good, bad):
    assume(not is_json(bad))  # valid JSON after all: test_json_lines covers it
    assume(bad.strip() and "\n" not in bad)  # not blank, and one line
    code, output = run("FILE", text="\n".join([*good, bad]))
    assert code == 2
    assert output == ""


sheets = st.one_of(
    json_values,
    st.fixed_dictionaries(
        {
            "players": st.one_of(
                st.sampled_from([["Anna", "Bert", "Cleo"], ["Anna", "Bert", "Cleo", "Dora"]]),
                st.sampled_from([["Anna", "Bert", "Cleo"], ["Anna", "Bert", "Cleo", "Dora"]]),
                st.lists(st.sampled_from(["Anna", "Bert", "Cleo", "Dora", " Anna", ""]), min_size=2, max_size=5),
                json_values,
            ),
            "games": st.lists(
                st.one_of(
                    games,
                    st.tuples(plausible, st.sampled_from(["Anna", "Bert", "Cleo", "Dora", "Eve"])).map(
                        lambda t: {**t[0], "declarer": t[1]}
                    ),
                    st.just({"passed": True}),
                ),
                max_size=8,
            ),
        },
        optional={"extra": json_values},
    ),
)


@FUZZ
@given(sheet=sheets)
def test_sheets(sheet):
    code, output = run("--sheet", "FILE", text=json.dumps(sheet, ensure_ascii=False))
    answer = json.loads(output)
    if code == 1:
        assert_error(answer)
    else:
        assert code == 0
        assert set(answer) >= {"players"}


@pytest.mark.parametrize("text", ["", "{", "[1, 2", "nul", "\ufeff{", '{"players": ["a"]}x'])
def test_a_sheet_that_is_not_json_exits_2(text):
    code, output = run("--sheet", "FILE", text=text)
    assert (code, output) == (2, "")


def test_a_lone_surrogate_is_echoed_as_an_escape_not_a_crash():
    """Regression: a "\\ud800" key or contract was echoed raw and broke the UTF-8 output."""
    code, output = run("FILE", text='{"contract": "grand\\ud800", "tops": 1, "declarer_points": 70}\n{"\\udc00": 1}')
    assert code == 1
    first, second = (json.loads(line)["error"] for line in output.splitlines())
    assert first.startswith("contract: 'grand\\ud800' is not a contract")
    assert second.startswith("'\\udc00': unknown field")


@pytest.mark.parametrize("key", ["", " ", "a b", "x: y"])
def test_an_odd_unknown_key_is_quoted_so_the_message_names_it(key):
    """Regression: an empty key answered ": unknown field", naming nothing."""
    for args, text in [
        (("FILE",), json.dumps({"contract": "grand", key: 1})),
        (("--sheet", "FILE"), json.dumps({"players": ["A", "B", "C"], "games": [], key: 1})),
        (("--sheet", "FILE"), json.dumps({"players": ["A", "B", "C"], "games": [{"passed": True, key: 1}]})),
    ]:
        code, output = run(*args, text=text)
        assert code == 1
        message = json.loads(output)["error"]
        assert f"{key!r}: " in message
        assert_error(json.loads(output))
