"""make mutation's verdict: every mutant mutmut reports as surviving must be listed, with
its reason, in equivalent_mutants.md beside this file; any other survivor fails the run.

Run from the project's root after ``mutmut run`` (``python skat/tests/equivalent_mutants.py``).
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

LISTED = re.compile(r"^- `(skat\.[\w.]+__mutmut_\d+)`: \S", re.MULTILINE)


def accepted(text: str) -> set[str]:
    """The mutant names the list accepts: lines "- `name`: reason" (a reason is required)."""
    return set(LISTED.findall(text))


def survivors(results: str) -> set[str]:
    """The names ``mutmut results`` reports as survived, timed out or otherwise not killed
    by a failing test (a mutant that hangs is not caught either); not those unchecked yet."""
    statuses = dict(re.findall(r"^\s*(skat\.\S+): (.+?)\s*$", results, re.MULTILINE))
    return {name for name, status in statuses.items() if status not in {"killed", "not checked", "skipped"}}


def main() -> int:
    listed = accepted((Path(__file__).with_name("equivalent_mutants.md")).read_text(encoding="utf-8"))
    results = subprocess.run(
        [sys.executable, "-m", "mutmut", "results"], capture_output=True, text=True, check=True
    ).stdout
    unchecked = re.findall(r"^\s*(\S+): not checked", results, re.MULTILINE)
    left = sorted(survivors(results) - listed)
    for name in left:
        print(f"surviving, not listed as equivalent: {name} (mutmut show {name})")
    if unchecked:
        print(f"{len(unchecked)} mutants not checked yet: run make mutation again to go on")
    print(f"{len(left)} surviving non-equivalent mutants, {len(listed)} listed as equivalent")
    return 1 if left or unchecked else 0


if __name__ == "__main__":
    sys.exit(main())
