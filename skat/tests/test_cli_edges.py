"""``python -m skat`` at its edges, in-process: every message it prints in full, the
exit codes, and the ways in which input arrives; what mutation testing (make mutation)
showed the other command-line tests, which read a few words, left open."""

from __future__ import annotations

import io
import json

import pytest

from skat import __version__, cli

GRAND = '{"contract": "grand", "tops": 2, "declarer_points": 61}'
WON = {"won": True, "value": 72, "score": 72, "overbid": False, "multiplier": 3}


def test_the_help_says_what_the_tool_and_each_option_do():
    text = " ".join(cli.parser().format_help().split())
    assert text.startswith("usage: python -m skat [-h] [--sheet FILE] [--matchday FILE] [--version] [file]")
    for words in (
        "Value Skat games by the Skatordnung: JSON Lines of games in, JSON Lines of answers out; "
        "or a whole scoresheet with --sheet, or a league match day with --matchday.",
        "file JSON Lines file of games, or - for standard input",
        "--sheet FILE evaluate one JSON scoresheet (players and games)",
        "--matchday FILE evaluate one JSON league match day (teams, tie, series of sheets)",
    ):
        assert words in text
    assert cli.parser("manage.py evaluate").format_usage().startswith("usage: manage.py evaluate ")


def test_games_arrive_on_standard_input_with_or_without_a_byte_order_mark():
    for raw in (GRAND.encode(), b"\xef\xbb\xbf" + GRAND.encode(), (GRAND + "\r\n\r\n" + GRAND).encode()):
        out, code = cli.answer(stdin=io.BytesIO(raw))
        assert code == 0 and all(json.loads(line) == WON for line in out.split("\n"))


def test_a_line_separator_inside_a_json_string_does_not_cut_the_line():
    out, code = cli.answer(stdin=io.BytesIO('{"contract": "grand\u2028"}\n'.encode()))
    assert code == 1 and out.count("\n") == 0


@pytest.mark.parametrize(
    ("kind", "text", "message"),
    [
        (
            "file",
            GRAND + "\n\n{x",
            "line 3: not JSON (Expecting property name enclosed in double quotes); "
            "the input must be JSON Lines, one game per line",
        ),
        (
            "sheet",
            "{\n[",
            "PATH: not JSON (Expecting property name enclosed in double quotes at line 2); a sheet is one JSON object",
        ),
        ("matchday", "[", "PATH: not JSON (Expecting value at line 1); a match day is one JSON object"),
    ],
)
def test_input_that_is_not_json_is_refused_in_full_with_exit_2(tmp_path, kind, text, message):
    path = tmp_path / "in.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(cli.InputError) as raised:
        cli.answer(**{kind: str(path)})
    assert (str(raised.value), raised.value.code) == (message.replace("PATH", str(path)), 2)


def test_a_file_that_cannot_be_read_is_refused_by_name(tmp_path):
    missing, binary = tmp_path / "nope.jsonl", tmp_path / "binary.jsonl"
    binary.write_bytes(b"\xff\xfe\x00")
    for path, message in (
        (missing, f"{missing}: cannot read (No such file or directory)"),
        (binary, f"{binary}: not UTF-8 text, so not JSON Lines"),
    ):
        with pytest.raises(cli.InputError) as raised:
            cli.answer(str(path))
        assert (str(raised.value), raised.value.code) == (message, 2)
    with pytest.raises(cli.InputError) as raised:
        cli.answer(sheet=str(binary), matchday=str(binary))
    assert str(raised.value) == "give --sheet or --matchday, not both"


def test_main_prints_one_line_per_answer_and_the_error_line(tmp_path):
    games = tmp_path / "games.jsonl"
    games.write_text(GRAND + "\n" + GRAND, encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    assert cli.main([str(games)], stdout=out, stderr=err) == 0
    assert out.getvalue() == json.dumps(WON) + "\n" + json.dumps(WON) + "\n"
    out, err = io.StringIO(), io.StringIO()
    assert cli.main(["--sheet", str(tmp_path / "x"), "--matchday", str(tmp_path / "x")], stdout=out, stderr=err) == 2
    assert (out.getvalue(), err.getvalue()) == ("", "error: give --sheet or --matchday, not both\n")


def test_umlauts_print_as_they_are_and_a_lone_surrogate_as_an_escape(tmp_path):
    out, code = cli.answer(stdin=io.BytesIO('{"contract": "grün"}'.encode()))
    assert code == 1 and "'grün' is not a contract" in out
    sheet = tmp_path / "sheet.json"  # the players' names are echoed as they are
    sheet.write_text('{"players": ["A\\ud800", "B", "C"], "games": [{"declarer": "Z"}]}', encoding="utf-8")
    out, code = cli.answer(sheet=str(sheet))
    assert code == 1
    assert out.endswith('is not a player of this table: A\\ud800, B, C (5.5.2)"}')  # the escape, as typed
    out.encode("utf-8")


def test_a_sheet_or_a_match_day_may_come_on_standard_input():
    sheet = b'{"players": ["A", "B", "C"], "games": []}'
    out, code = cli.answer(sheet="-", stdin=io.BytesIO(sheet))
    assert (json.loads(out)["settlement"], code) == ({"A": 0, "B": 0, "C": 0}, 0)
    out, code = cli.answer(matchday="-", stdin=io.BytesIO(b"[]"))
    assert (json.loads(out), code) == (
        {"error": 'match day: must be a JSON object {"teams": {...}, "series": [...]}'},
        1,
    )


def test_a_line_that_is_not_a_game_object_is_answered_in_full():
    out, code = cli.answer(stdin=io.BytesIO(b"[1]"))
    assert (json.loads(out), code) == (
        {"error": 'game: must be a JSON object such as {"contract": "grand", ...} (5.5.2)'},
        1,
    )


def test_version_prints_the_programme_and_its_version(capsys):
    with pytest.raises(SystemExit) as raised:
        cli.parser().parse_args(["--version"])
    assert raised.value.code == 0
    assert capsys.readouterr().out == f"python -m skat {__version__}\n"
