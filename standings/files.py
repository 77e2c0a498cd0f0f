"""The standings page's full list as CSV: every place of the scope the page shows, for a
spreadsheet (the paged page shows 50 at a time). The same rows the page reads from the
cache (standings.pages.board); the columns the page shows, in the reader's
language; written by core.tabular, so formula-looking text stays text."""

from __future__ import annotations

from collections.abc import Iterator

from django.http import HttpResponse
from django.utils.text import slugify
from django.utils.translation import gettext as _

from core import tabular
from tournaments.models import Tournament

from .pages import Scope, scope_query


def csv_text(data: list[dict], teams: bool) -> str:
    """The rows as CSV text for German Excel and LibreOffice (";" and a byte order mark)."""
    figures = [_("Game points"), _("Won"), _("Lost"), _("Bonus"), _("Rating"), _("Tables"), _("Unconfirmed sheets")]
    if teams:
        header = [_("Place"), _("Team"), *figures, _("Players")]
    else:
        header = [_("Place"), _("No."), _("Player"), _("Club"), *figures]
    return tabular.csv_text(header, _rows(data, teams))


def _rows(data: list[dict], teams: bool) -> Iterator[tuple]:
    for row in data:
        numbers = [row[key] for key in ("points", "won", "lost", "bonus", "rating", "tables", "unconfirmed")]
        if teams:
            members = ", ".join(f"{name} ({rating})" for name, rating in row["members"])
            yield (row["place"], row["name"], *numbers, members)
        else:
            start = row.get("start_number")
            yield (row["place"], "" if start is None else start, row["name"], row["club"], *numbers)


def csv_response(tournament: Tournament, data: list[dict], scope: Scope) -> HttpResponse:
    """The CSV file of the scope's rows, named after the tournament and the scope."""
    response = HttpResponse(csv_text(data, scope.teams), content_type=tabular.CSV_TYPE)
    name = "-".join(filter(None, [slugify(tournament.name) or "tournament", "standings", slugify(scope_query(scope))]))
    response["Content-Disposition"] = f'attachment; filename="{name}.csv"'
    return response
