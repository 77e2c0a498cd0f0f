"""The standings table written directly (standings.list_html) is django-tables2's own
rendering of the same table: headings, sort links, classes, links, empty cells, words."""

from __future__ import annotations

import re

import pytest
from django.template.loader import render_to_string
from django.test import RequestFactory
from django.utils import translation
from django_tables2 import RequestConfig

from standings.list_html import table_html
from standings.tables import StandingsTable, TeamStandingsTable

PLAYERS = [
    {"place": 1, "name": "Anna <Ärger>", "club": "SC Grün & Weiß", "start_number": 7, "url": "/p/1/players/4/"},
    {"place": 2, "name": "Bernd", "club": "", "start_number": None, "url": "/p/1/players/5/?a=1&b=2"},
    {"place": 3, "name": "Clara", "club": None, "start_number": 12},
    {"place": 4, "name": "Dora", "club": "Herz Dame", "start_number": 1},
]
# fmt: off
FIGURES = [
    {"points": 1234, "won": 9, "lost": 1, "bonus": 400, "rating": 2034, "tables": 3, "decided_by": None, "unconfirmed": 0},  # noqa: E501
    {"points": -60, "won": 5, "lost": 4, "bonus": 0, "rating": -110, "tables": 3, "decided_by": "rating", "unconfirmed": 2},  # noqa: E501
    {"points": 0, "won": 0, "lost": 0, "bonus": 0, "rating": -110, "tables": 0, "decided_by": "lot", "unconfirmed": 1},
    {"points": 0, "won": 0, "lost": 0, "bonus": 0, "rating": -110, "tables": 1, "decided_by": "lot", "unconfirmed": 0},
]
# fmt: on
TEAMS = [
    {"place": 1, "name": "Die <Buben>", "members": [("Anna", 2034), ("Bernd", -110)], "team_id": 1},
    {"place": 2, "name": "Asse", "members": [], "team_id": 2},
]


def normalized(html: str) -> str:
    """The markup without the template's indentation (whitespace between tags, and inside a cell's edges)."""
    return re.sub(r"\s+", " ", re.sub(r">\s+", ">", re.sub(r"\s+<", "<", str(html)))).strip()


def both(table_class, rows: list[dict], query: dict) -> tuple[str, str]:
    request = RequestFactory().get("/p/1/standings/", query)
    table = table_class([dict(row) for row in rows])
    RequestConfig(request, paginate=False).configure(table)
    theirs = render_to_string("django_tables2/table.html", {"table": table, "request": request})
    return normalized(table_html(table, request)), normalized(theirs)


@pytest.mark.parametrize("language", ["en", "de"])
@pytest.mark.parametrize("query", [{}, {"sort": "-points"}, {"sort": "rating", "page": "2", "q": "a b&c"}])
def test_the_players_table_is_django_tables2s(language, query):
    rows = [player | figures for player, figures in zip(PLAYERS, FIGURES, strict=True)]
    with translation.override(language):
        ours, theirs = both(StandingsTable, rows, query)
    assert ours == theirs
    assert "&lt;Ärger&gt;" in ours and 'href="/p/1/players/5/?a=1&amp;b=2"' in ours


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_teams_table_is_django_tables2s(language):
    rows = [team | figures for team, figures in zip(TEAMS, FIGURES, strict=False)]
    with translation.override(language):
        ours, theirs = both(TeamStandingsTable, rows, {"view": "teams", "sort": "-won"})
    assert ours == theirs
    assert "Die &lt;Buben&gt;" in ours


def test_an_empty_table_has_headings_and_no_rows():
    ours, theirs = both(StandingsTable, [], {})
    assert ours == theirs
    assert ours.count("<th ") == len(StandingsTable.base_columns) and "<td" not in ours
