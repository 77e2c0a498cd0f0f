"""The hand-written mutants of ``make mutation`` stay true to the engine.

Running them takes minutes (``make mutation``); checking that each snippet is still in its
module exactly once and that each mutated module compiles takes milliseconds, so a change
of the engine that leaves the list behind fails here, in every run, not weeks later.
"""

from __future__ import annotations

import os

import pytest

from skat.tests.hand_mutants import MUTANTS, ROOT, Mutant, check

#: Under mutmut the engine's modules are its rewritten copies (mutants/skat/...), which hold
#: none of the snippets: there this check would kill every mutant for nothing.
UNDER_MUTMUT = "MUTANT_UNDER_TEST" in os.environ or ROOT.name == "mutants"


@pytest.mark.skipif(UNDER_MUTMUT, reason="mutmut's rewritten engine holds no snippet")
def test_every_hand_written_mutant_still_matches_the_engine():
    assert len(MUTANTS) >= 20
    assert check(MUTANTS) == []


def test_a_snippet_left_behind_is_found(tmp_path):
    (tmp_path / "skat").mkdir()
    (tmp_path / "skat" / "m.py").write_text("x = 1\ny = 1\n", encoding="utf-8")
    gone = Mutant("gone", "skat/m.py", "z = 1", "z = 2", "a renamed variable")
    twice = Mutant("twice", "skat/m.py", " = 1", " = 2", "two matches")
    broken = Mutant("broken", "skat/m.py", "x = 1", "x = (", "a syntax error")
    problems = check([gone, twice, broken], root=tmp_path)
    assert [p.split(":")[0] for p in problems] == ["gone", "twice", "broken"]
