"""A published seed redraws the published tables, in any later version of the office.

The draw is reproducible so a director can redo and explain it (DOMAIN, "Structure of a
tournament": seats are drawn, 3.1.1; skat/draw.py: the same seed and input always give the
same draw). Within one version test_draw.py checks that; these tests pin the tables, the
seat order and the reported counts of a few draws to what was published, so a change of
the search (another candidate order, another use of the random generator, one round more
or less) cannot pass unseen: it would redraw a published series differently.

The cases cover each path of the draw: a random draw of more than 64 tables (the swap
search samples 64 of them), a second series against the first one's meetings, a seeded
draw (swaps within the window), a seeded draw whose team-mates the window cannot part,
and a draw whose seating apart is built (seat_apart). ``draws.json`` holds what they drew;
rewrite it (``python -m skat.tests.test_draw_reproducible``) only for a deliberate change
of the draw, said in the changelog: every seed published before then draws differently.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from itertools import combinations
from pathlib import Path

import pytest

from skat.draw import DrawResult, Entrant, draw
from skat.tests.test_draw import entrants, named_field

DATA = Path(__file__).with_name("data") / "draws.json"


def _second_series(field: list[Entrant], seed: int, **kwargs: object) -> DrawResult:
    first = draw(field, seed=seed)
    met = [pair for table in first.tables for pair in combinations(table, 2)]
    return draw(field, seed=seed + 1, met=met, **kwargs)


def _teams_built() -> DrawResult:
    field = [Entrant(f"{t}{n}", team=t) for t in "ABCD" for n in range(1, 5)] + [Entrant("solo")]
    field += [Entrant(f"E{n}", team="E") for n in range(1, 3)]
    return draw(field, seed=3, max_rounds=0)


CASES: dict[str, Callable[[], DrawResult]] = {
    "named field of 60, random": lambda: draw(named_field(), seed=42),
    "280 players of 20 clubs, 70 tables, random": lambda: draw(entrants(280, clubs=20), seed=1),
    "280 players, second series": lambda: _second_series(entrants(280, clubs=20), 1),
    "40 players, seeded, window 2": lambda: draw(
        entrants(40, clubs=6), seed=5, ranking=list(reversed(range(40))), met=[(0, 1), (1, 2), (36, 37), (36, 37)]
    ),
    "40 players, seeded second series, window 1": lambda: _second_series(
        entrants(40, clubs=6, team_size=2, teams=4), 8, ranking=list(range(40)), window=1
    ),
    "40 players in teams of four, seeded by team": lambda: draw(
        entrants(40, team_size=4, teams=10), seed=5, ranking=list(range(40))
    ),
    "five teams and a solo player, seating apart built": _teams_built,
    "five teams and a solo player, swaps after building": lambda: draw(
        [Entrant(f"{t}{n}", team=t) for t in "ABCD" for n in range(1, 5)]
        + [Entrant("solo", club="X"), Entrant("E1", team="E", club="X"), Entrant("E2", team="E")],
        seed=4,
        met=[("A1", "B1"), ("A1", "C1"), ("B2", "C2")],
    ),
}


def published(result: DrawResult) -> dict[str, object]:
    """What a published draw shows: the tables in seat order and the counts reported."""
    return {
        "tables": [list(players) for players in result.tables],
        "repeat_meetings": result.repeat_meetings,
        "club_meetings": result.club_meetings,
        "team_meetings": result.team_meetings,
        "swaps": result.swaps,
    }


@pytest.mark.parametrize("case", list(CASES))
def test_a_published_seed_draws_the_published_tables(case):
    expected = json.loads(DATA.read_text(encoding="utf-8"))[case]
    assert published(CASES[case]()) == expected


if __name__ == "__main__":
    DATA.write_text(json.dumps({name: published(make()) for name, make in CASES.items()}, indent=1) + "\n")
