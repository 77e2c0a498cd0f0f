"""``python -m skat``: games, a sheet and a match day on the command line, without Django.

The office's ``manage.py evaluate`` answers the same (tests/scoring/test_evaluate_command.py
compares the two on the same inputs)."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from skat import __version__, cli

ROOT = Path(__file__).resolve().parents[2]
GRAND = {"contract": "grand", "tops": 2, "declarer_points": 61}


def run(*args: str, stdin: bytes = b"") -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "skat", *args], input=stdin, capture_output=True, cwd=ROOT, timeout=60, check=False
    )


def test_games_in_json_lines_out_and_exit_0():
    done = run(stdin=(json.dumps(GRAND) + "\n\n" + json.dumps(GRAND | {"declarer_points": 60})).encode())
    assert done.returncode == 0, done.stderr
    answers = [json.loads(line) for line in done.stdout.decode().splitlines()]
    assert [a["won"] for a in answers] == [True, False]
    assert answers[0]["value"] == 72  # with 2, game 3, 3 x 24 (5.1.2)


def test_a_refused_game_answers_its_error_and_exits_1():
    done = run(stdin=b'{"contract": "grand"}\n[1]\n')
    assert done.returncode == 1
    first, second = (json.loads(line) for line in done.stdout.decode().splitlines())
    assert "error" in first and second == {
        "error": 'game: must be a JSON object such as {"contract": "grand", ...} (5.5.2)'
    }


def test_input_that_is_not_json_lines_exits_2_with_nothing_on_stdout():
    done = run(stdin=b"{not json\n")
    assert (done.returncode, done.stdout) == (2, b"")
    assert "line 1: not JSON" in done.stderr.decode()


def test_a_file_that_cannot_be_read_or_is_not_utf8_exits_2(tmp_path):
    assert run(str(tmp_path / "nope.jsonl")).returncode == 2
    binary = tmp_path / "binary.jsonl"
    binary.write_bytes(b"\xff\xfe\x00")
    done = run(str(binary))
    assert done.returncode == 2 and "not UTF-8" in done.stderr.decode()


def test_a_sheet_and_a_match_day_are_one_json_document_each(tmp_path):
    sheet = tmp_path / "sheet.json"
    sheet.write_text(json.dumps({"players": ["A", "B", "C"], "games": [GRAND | {"declarer": "A"}]}))
    out, code = cli.answer(sheet=str(sheet))
    assert code == 0 and "settlement" in json.loads(out)
    broken = tmp_path / "broken.json"
    broken.write_text("[")
    with pytest.raises(cli.InputError, match="a match day is one JSON object"):
        cli.answer(matchday=str(broken))
    with pytest.raises(cli.InputError, match="not both"):
        cli.answer(sheet=str(sheet), matchday=str(sheet))


def test_a_refused_sheet_answers_its_error_and_exits_1(tmp_path):
    sheet = tmp_path / "sheet.json"
    sheet.write_text(json.dumps({"players": ["A", "B"], "games": []}))
    out, code = cli.answer(sheet=str(sheet))
    assert code == 1 and "error" in json.loads(out)


def test_main_writes_answers_and_errors_to_the_streams_it_is_given(tmp_path, monkeypatch):
    games = tmp_path / "games.jsonl"
    games.write_text(json.dumps(GRAND))
    out, err = io.StringIO(), io.StringIO()
    assert cli.main([str(games)], stdout=out, stderr=err) == 0
    assert json.loads(out.getvalue())["won"] is True and err.getvalue() == ""
    out, err = io.StringIO(), io.StringIO()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"")))
    assert cli.main([], stdout=out, stderr=err) == 0
    assert out.getvalue() == ""
    out, err = io.StringIO(), io.StringIO()
    assert cli.main([str(tmp_path / "nope")], stdout=out, stderr=err) == 2
    assert err.getvalue().startswith("error: ") and out.getvalue() == ""


def test_version():
    done = run("--version")
    assert done.returncode == 0 and done.stdout.decode().strip() == f"python -m skat {__version__}"
