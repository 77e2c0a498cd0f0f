"""The standings table's sorting: the first click on a heading puts the best first."""

from __future__ import annotations

import pytest
from django.test import RequestFactory
from django_tables2 import RequestConfig

from standings.tables import StandingsTable

ROWS = [
    {"place": 1, "name": "A", "club": "", "points": 300, "won": 9, "lost": 1, "bonus": 400, "rating": 700},
    {"place": 2, "name": "B", "club": "", "points": 500, "won": 5, "lost": 4, "bonus": 100, "rating": 600},
    {"place": 3, "name": "C", "club": "", "points": 100, "won": 11, "lost": 0, "bonus": 450, "rating": 550},
]
for row in ROWS:
    row |= {"tables": 1, "decided_by": None, "unconfirmed": 0, "player_id": row["place"]}


def names(sort: str | None) -> list[str]:
    request = RequestFactory().get("/", {"sort": sort} if sort else {})
    table = StandingsTable([dict(row) for row in ROWS])
    RequestConfig(request, paginate=False).configure(table)
    return [row.record["name"] for row in table.rows]


@pytest.mark.parametrize(
    ("sort", "expected"),
    [
        (None, ["A", "B", "C"]),  # by place
        ("rating", ["A", "B", "C"]),
        ("-rating", ["C", "B", "A"]),
        ("points", ["B", "A", "C"]),
        ("won", ["C", "A", "B"]),
        ("bonus", ["C", "A", "B"]),
        ("lost", ["C", "A", "B"]),  # fewer lost is better
        ("-lost", ["B", "A", "C"]),
    ],
)
def test_the_first_click_sorts_the_best_first(sort, expected):
    assert names(sort) == expected
