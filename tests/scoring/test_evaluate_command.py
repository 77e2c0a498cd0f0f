"""`manage.py evaluate` answers what `python -m skat` answers: the same stdout and exit code
for games, a sheet and a match day, valid, refused and unreadable (the engine's own tests,
skat/tests/test_cli*.py, give the contract itself)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

GAMES = (
    '{"contract": "hearts", "tops": 2, "hand": true, "declarer_points": 95}\n'
    '{"contract": "grand"}\n'
    '{"contract": "null", "ouvert": true, "hand": true, "declarer_tricks": 0}\n'
)
SHEET = {
    "players": ["Anna", "Bernd", "Clara"],
    "games": [{"declarer": "Bernd", "contract": "grand", "tops": 1, "declarer_points": 61}],
}
MATCH_DAY = {
    "teams": {"Kreuz Bube": ["A1", "A2", "A3"], "Herz Dame": ["B1", "B2", "B3"], "Pik As": ["C1", "C2", "C3"]},
    "tie": "split",
    "series": [[{"players": ["A1", "B1", "C1"], "games": []}, {"players": ["B2", "C2", "A2"], "games": []}]],
}


def both(args: list[str], stdin: bytes = b"") -> tuple[subprocess.CompletedProcess, subprocess.CompletedProcess]:
    def run(command: list[str]) -> subprocess.CompletedProcess:
        return subprocess.run(command + args, input=stdin, capture_output=True, cwd=ROOT, timeout=120, check=False)

    return run([sys.executable, "manage.py", "evaluate"]), run([sys.executable, "-m", "skat"])


def write(tmp_path: Path, name: str, content: object) -> str:
    path = tmp_path / name
    path.write_text(content if isinstance(content, str) else json.dumps(content), encoding="utf-8")
    return str(path)


@pytest.mark.parametrize(
    ("case", "expected_code"),
    [
        ("games", 1),
        ("valid games", 0),
        ("not json", 2),
        ("sheet", 0),
        ("bad sheet", 1),
        ("match day", 0),
        ("match day not json", 2),
        ("both documents", 2),
        ("missing file", 2),
    ],
)
def test_manage_py_evaluate_answers_what_python_m_skat_answers(tmp_path, case, expected_code):
    args, stdin = {
        "games": (["-"], GAMES.encode()),
        "valid games": ([write(tmp_path, "g.jsonl", GAMES.split("\n")[0])], b""),
        "not json": ([], b"grand\n"),
        "sheet": (["--sheet", write(tmp_path, "s.json", SHEET)], b""),
        "bad sheet": (["--sheet", write(tmp_path, "bad.json", SHEET | {"players": ["Anna"]})], b""),
        "match day": (["--matchday", write(tmp_path, "m.json", MATCH_DAY)], b""),
        "match day not json": (["--matchday", write(tmp_path, "broken.json", "{teams")], b""),
        "both documents": (["--sheet", write(tmp_path, "s.json", SHEET), "--matchday", "x"], b""),
        "missing file": ([str(tmp_path / "nope.jsonl")], b""),
    }[case]
    office, engine = both(args, stdin)
    assert (office.returncode, engine.returncode) == (expected_code, expected_code), (office.stderr, engine.stderr)
    assert office.stdout.decode().strip() == engine.stdout.decode().strip()
    if expected_code == 2:
        assert office.stdout == engine.stdout == b""
        message = engine.stderr.decode().removeprefix("error: ").strip()
        assert message and message in office.stderr.decode()
