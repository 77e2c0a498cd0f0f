"""make mutation's hand-written mutants: realistic mistakes mutmut cannot make.

mutmut changes operators, numbers, strings and keywords one at a time; it never calls
another function, passes another argument or drops a clause, which is how many real
mistakes look (``min(best, held)`` written as ``best``, a ``rounding=`` left out). Each
entry below is such a mistake, as an exact snippet of the engine and its replacement,
with why someone could write it. The runner copies ``skat/`` into a temporary folder,
applies one mutant there, runs the engine's tests on that copy (``-x``, no coverage,
without the exhaustive grid marked slow) and reports the mutants no test kills.

Run from the project's root: ``python skat/tests/hand_mutants.py`` (``--jobs N`` runs N
mutants at a time, ``--list`` prints them, names select some). Exit 0 when every mutant
is killed; 1 when one survives; 2 when the list no longer matches the code (a snippet
not found exactly once) or the unmutated copy fails its tests. Not a test module (its
name is no ``test_*``), and mutmut leaves ``skat/tests`` alone.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TIMEOUT = 600

PYTEST = (
    "-m",
    "pytest",
    "-x",
    "-q",
    "-p",
    "no:django",
    "-p",
    "no:cacheprovider",
    "-W",
    "ignore:Unknown config option:pytest.PytestConfigWarning",
    "-m",
    "not slow",
    # The list's own check finds any mutant's snippet gone: a mutant must die by a real test.
    "--deselect",
    "skat/tests/test_hand_mutants_list.py::test_every_hand_written_mutant_still_matches_the_engine",
    "skat/tests",
)


@dataclass(frozen=True)
class Mutant:
    """One mistake: ``original`` (exactly once in ``module``) becomes ``replacement``."""

    name: str
    module: str
    original: str
    replacement: str
    why: str


MUTANTS: tuple[Mutant, ...] = (
    # Rankings over many tournaments (skat/yearly.py, line_of).
    Mutant(
        "yearly-best-n-not-capped-by-held",
        "skat/yearly.py",
        "target = held if rules.best is None else min(rules.best, held)",
        "target = held if rules.best is None else rules.best",
        "best N read as N results due from the first evening on: everyone is penalised for "
        "evenings not played yet (the results that count are min(N, held)).",
    ),
    Mutant(
        "yearly-best-tie-break-reads-the-worst",
        "skat/yearly.py",
        '"best": counted[0].value if counted else 0,',
        '"best": counted[-1].value if counted else 0,',
        "the wrong end of the counted results (sorted best first) taken for the best one.",
    ),
    Mutant(
        "yearly-average-over-every-result",
        "skat/yearly.py",
        "total /= len(counted)",
        "total /= len(results)",
        "an average of the best N divided by every result played, dropped ones included.",
    ),
    Mutant(
        "yearly-latest-tie-break-reads-the-earliest",
        "skat/yearly.py",
        "latest = max(results, key=lambda r: r.order).value",
        "latest = min(results, key=lambda r: r.order).value",
        'the "latest" tie-break reading the first unit held instead of the last.',
    ),
    Mutant(
        "yearly-place-points-one-row-down",
        "skat/yearly.py",
        "return rules.place_points[place - 1] if 1 <= place <= len(rules.place_points) else 0",
        "return rules.place_points[place] if 0 <= place < len(rules.place_points) else 0",
        "places counted from 1 used as an index from 0: every place gets the next row's points.",
    ),
    # The performance rating (skat/rating.py).
    Mutant(
        "rating-opponent-bonus-swapped",
        "skat/rating.py",
        "OPPONENT_BONUS = {3: 40, 4: 30}",
        "OPPONENT_BONUS = {3: 30, 4: 40}",
        "the 40 and 30 of the opponent bonus mixed up between tables of three and four.",
    ),
    Mutant(
        "rating-bonus-to-the-declarer-too",
        "skat/rating.py",
        "return (table_lost - lost) * per_lost",
        "return table_lost * per_lost",
        "every lost game of the table credited to every seat, the declarer who lost it included.",
    ),
    Mutant(
        "rating-more-lost-ranks-first",
        "skat/rating.py",
        "return (-r.rating, -r.won, r.lost)",
        "return (-r.rating, -r.won, -r.lost)",
        "the third criterion written like the first two: more games lost ranking higher.",
    ),
    Mutant(
        "rating-seeger-keeps-the-bonus",
        "skat/rating.py",
        "return self.rating - self.bonus",
        "return self.rating",
        "the classic Seeger-Fabian figure taken as the extended one, opponent bonus included.",
    ),
    # The valuation (skat/rules.py).
    Mutant(
        "rules-overbid-multiplier-rounded",
        "skat/rules.py",
        "multiplier = math.ceil(bid / base)",
        "multiplier = round(bid / base)",
        "an overbid game raised to the nearest multiple of its base value, which may stay below the bid (5.4.1).",
    ),
    Mutant(
        "rules-overbid-multiplier-floored",
        "skat/rules.py",
        "multiplier = math.ceil(bid / base)",
        "multiplier = bid // base",
        "an overbid game raised by whole multiples that fit in the bid, not to the bid (5.4.1).",
    ),
    Mutant(
        "rules-lost-game-not-doubled",
        "skat/rules.py",
        "return value if won else -2 * value",
        "return value if won else -value",
        "a lost game scored at minus its value, not doubled (5.3.4).",
    ),
    Mutant(
        "rules-schneidered-declarer-not-schneider",
        "skat/rules.py",
        "schneider = made_schneider or points <= SCHNEIDERED_POINTS",
        "schneider = made_schneider",
        "schneider counted only for the declarer, not when he is schneidered himself (5.2.3).",
    ),
    Mutant(
        "rules-declarer-schwarz-not-counted",
        "skat/rules.py",
        "schwarz = made_schwarz or tricks == 0",
        "schwarz = made_schwarz",
        "schwarz counted only for the declarer, not when he takes no trick (5.2.4).",
    ),
    Mutant(
        "rules-ouvert-not-schwarz-announced",
        "skat/rules.py",
        "tricks = game.declarer_tricks\n    schwarz_announced = game.schwarz_announced or game.ouvert",
        "tricks = game.declarer_tricks\n    schwarz_announced = game.schwarz_announced",
        "an ouvert game valued without the schwarz announcement it includes (5.2.6).",
    ),
    # Fees and prizes (skat/fees.py, skat/prizes.py).
    Mutant(
        "fees-passed-out-paid-once-per-table",
        "skat/fees.py",
        "(passed_fee(s, deals) * s * n",
        "(passed_fee(s, deals) * n",
        "a table's passed-out fee counted once, not once for each player who pays it.",
    ),
    Mutant(
        "fees-every-occurrence-at-the-last-step",
        "skat/fees.py",
        "step_amount(ordered, n) for n in range(1, count + 1)",
        "step_amount(ordered, count) for n in range(1, count + 1)",
        "every lost game charged at the step of the last one, not each at its own step.",
    ),
    Mutant(
        "fees-prize-pool-rounded-to-nearest",
        "skat/fees.py",
        "pool = max(ZERO, (kept * percent / 100).quantize(CENT, rounding=ROUND_DOWN))",
        "pool = max(ZERO, (kept * percent / 100).quantize(CENT))",
        "the prize pool's share rounded to the nearest cent instead of down.",
    ),
    Mutant(
        "fees-prize-share-rounded-to-nearest",
        "skat/prizes.py",
        "amount = (pool * Decimal(rule.percent) / 100).quantize(CENT, rounding=ROUND_DOWN)",
        "amount = (pool * Decimal(rule.percent) / 100).quantize(CENT)",
        "a prize share rounded to the nearest cent, so the shares may pay out more than the pool.",
    ),
    Mutant(
        "fees-table-money-by-seat",
        "skat/fees.py",
        "paid = [table_money(money, places[seat]) for seat in range(size)]",
        "paid = [table_money(money, seat + 1) for seat in range(size)]",
        "table money paid by seat number instead of by place at the table.",
    ),
    Mutant(
        "fees-refund-ignores-the-first-series",
        "skat/fees.py",
        "unplayed = max(series_count - max(withdrawn_after, first_series - 1), 0)",
        "unplayed = max(series_count - withdrawn_after, 0)",
        "series before a player's first one refunded although he never paid them.",
    ),
    Mutant(
        "fees-capped-table-money-in-seat-order",
        "skat/fees.py",
        "for seat in sorted(range(len(amounts)), key=lambda seat: places[seat]):",
        "for seat in range(len(amounts)):",
        "capped table money paid in seat order instead of the order of the places.",
    ),
    # The league's individual ranking (skat/individual.py).
    Mutant(
        "individual-counts-the-worst-n",
        "skat/individual.py",
        "counted = sorted(scores, reverse=True)[:best] if best else list(scores)",
        "counted = sorted(scores)[:best] if best else list(scores)",
        "best N taken from a sort in ascending order: the worst N series count.",
    ),
    Mutant(
        "individual-average-over-played",
        "skat/individual.py",
        "round(self.total / self.counted, 1) if self.counted else 0.0",
        "round(self.total / self.played, 1) if self.counted else 0.0",
        "the average of the counted series divided by every series played.",
    ),
)


@dataclass(frozen=True)
class Verdict:
    mutant: Mutant
    status: str  # "killed", "survived", "error", "timeout"
    detail: str


def check(mutants: Sequence[Mutant], root: Path = ROOT) -> list[str]:
    """What is wrong with the list itself: names twice, a snippet not exactly once in its
    module, a replacement equal to the original or that does not compile."""
    problems = []
    seen: set[str] = set()
    for m in mutants:
        if m.name in seen:
            problems.append(f"{m.name}: the name is used twice")
        seen.add(m.name)
        path = root / m.module
        if not path.is_file():
            problems.append(f"{m.name}: no module {m.module}")
            continue
        source = path.read_text(encoding="utf-8")
        found = source.count(m.original)
        if found != 1:
            problems.append(f"{m.name}: the original snippet is in {m.module} {found} times, not once: {m.original!r}")
            continue
        if m.replacement == m.original:
            problems.append(f"{m.name}: the replacement is the original")
            continue
        try:
            compile(source.replace(m.original, m.replacement), m.module, "exec")
        except SyntaxError as error:
            problems.append(f"{m.name}: the mutated {m.module} does not compile: {error}")
    return problems


def _copy(root: Path, into: Path) -> Path:
    """The engine and the project's pytest settings, in a fresh folder; returns it."""
    shutil.copytree(root / "skat", into / "skat", ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    shutil.copy2(root / "pyproject.toml", into / "pyproject.toml")
    return into


def _pytest(folder: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, *PYTEST], cwd=folder, capture_output=True, text=True, timeout=TIMEOUT, check=False
    )


def run_one(mutant: Mutant, root: Path = ROOT) -> Verdict:
    """Apply ``mutant`` to a copy of the engine and run its tests there."""
    with tempfile.TemporaryDirectory(prefix="hand-mutant-") as tmp:
        folder = _copy(root, Path(tmp))
        path = folder / mutant.module
        path.write_text(path.read_text(encoding="utf-8").replace(mutant.original, mutant.replacement), "utf-8")
        try:
            done = _pytest(folder)
        except subprocess.TimeoutExpired:
            return Verdict(mutant, "timeout", f"the tests ran longer than {TIMEOUT} s")
    if done.returncode == 0:
        return Verdict(mutant, "survived", "every test passed")
    if done.returncode == 1:
        failed = re.findall(r"^(?:FAILED|ERROR) (\S+)", done.stdout, re.MULTILINE)
        return Verdict(mutant, "killed", failed[0] if failed else "a test failed")
    return Verdict(mutant, "error", f"pytest exit {done.returncode}: {(done.stdout + done.stderr)[-2000:]}")


def baseline(root: Path = ROOT) -> str | None:
    """The unmutated copy must import from itself and pass: otherwise every verdict is
    meaningless. None when it does; else what went wrong."""
    with tempfile.TemporaryDirectory(prefix="hand-mutant-") as tmp:
        folder = _copy(root, Path(tmp))
        where = subprocess.run(
            [sys.executable, "-c", "import skat; print(skat.__file__)"],
            cwd=folder,
            capture_output=True,
            text=True,
            check=False,
        ).stdout.strip()
        if not Path(where).resolve().is_relative_to(folder.resolve()):
            return f"the copy imports skat from {where or 'nowhere'}, not from {folder}"
        done = _pytest(folder)
    if done.returncode != 0:
        return f"the unmutated engine fails its tests (exit {done.returncode}):\n{done.stdout[-3000:]}"
    return None


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help="run only these mutants (default: all)")
    parser.add_argument("--jobs", type=int, default=2, help="mutants tested at a time (default 2)")
    parser.add_argument("--list", action="store_true", help="print the mutants and stop")
    args = parser.parse_args(argv)
    unknown = set(args.names) - {m.name for m in MUTANTS}
    if unknown:
        parser.error(f"no such mutant: {', '.join(sorted(unknown))}")
    chosen = [m for m in MUTANTS if not args.names or m.name in args.names]
    problems = check(MUTANTS)
    if problems:
        print("hand mutants: the list no longer matches the code:", *problems, sep="\n  ")
        return 2
    if args.list:
        for m in chosen:
            print(f"{m.name} ({m.module}): {m.why}")
        return 0
    broken = baseline()
    if broken:
        print(f"hand mutants: {broken}")
        return 2
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        verdicts = list(pool.map(run_one, chosen))
    for v in verdicts:
        print(f"{v.status:8} {v.mutant.name} ({v.mutant.module}): {v.detail}")
    left = [v for v in verdicts if v.status != "killed"]
    for v in left:
        print(f"not killed: {v.mutant.name}: {v.mutant.why}")
    print(f"{len(verdicts) - len(left)} of {len(verdicts)} hand-written mutants killed")
    return 1 if left else 0


if __name__ == "__main__":
    sys.exit(main())
