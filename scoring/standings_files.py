"""The standings page's full list as CSV: every place of the scope the page shows, for a
spreadsheet (the paged page shows 50 at a time). The same rows the page reads from the
cache (scoring.standings_page.board); the columns the page shows, in the reader's
language; formula-looking text is defused (tournaments.cells)."""

from __future__ import annotations

import csv
import io

from django.http import HttpResponse
from django.utils.text import slugify
from django.utils.translation import gettext as _

from tournaments.cells import cells
from tournaments.models import Tournament

from .exports.writers import CSV_BOM, CSV_DELIMITER
from .standings_page import Scope, scope_query


def csv_text(data: list[dict], teams: bool) -> str:
    """The rows as CSV text for German Excel and LibreOffice (";" and a byte order mark)."""
    out = io.StringIO()
    writer = csv.writer(out, delimiter=CSV_DELIMITER, lineterminator="\r\n")
    figures = [_("Game points"), _("Won"), _("Lost"), _("Bonus"), _("Rating"), _("Tables"), _("Unconfirmed sheets")]
    if teams:
        writer.writerow([_("Place"), _("Team"), *figures, _("Players")])
    else:
        writer.writerow([_("Place"), _("No."), _("Player"), _("Club"), *figures])
    for row in data:
        numbers = [row[key] for key in ("points", "won", "lost", "bonus", "rating", "tables", "unconfirmed")]
        if teams:
            members = ", ".join(f"{name} ({rating})" for name, rating in row["members"])
            writer.writerow(cells((row["place"], row["name"], *numbers, members)))
        else:
            start = row.get("start_number")
            writer.writerow(cells((row["place"], "" if start is None else start, row["name"], row["club"], *numbers)))
    return CSV_BOM + out.getvalue()


def csv_response(tournament: Tournament, data: list[dict], scope: Scope) -> HttpResponse:
    """The CSV file of the scope's rows, named after the tournament and the scope."""
    response = HttpResponse(csv_text(data, scope.teams), content_type="text/csv; charset=utf-8")
    name = "-".join(filter(None, [slugify(tournament.name) or "tournament", "standings", slugify(scope_query(scope))]))
    response["Content-Disposition"] = f'attachment; filename="{name}.csv"'
    return response
