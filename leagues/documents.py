"""The league's PDFs: the season table, and the writer the match report (Spielbericht,
leagues.office.report_pdf) prints with too."""

from __future__ import annotations

import io

from django.http import HttpResponse
from django.utils import formats
from django.utils.translation import gettext as _

from core.filenames import Name, file_name
from printing.documents.common import MARGIN, PAGE_WIDTH, PageWriter, fit
from skat.league import points_text, score_line

from .models import League
from .results import as_of, season_tables

RIGHT = PAGE_WIDTH - MARGIN
ROW = 14.0
SIZE = 9.0


class _Writer(PageWriter):
    """The league's lists (printing.documents.common.PageWriter), with headings and rules."""

    def __init__(self, out, title: str, texts: list[str]) -> None:
        super().__init__(out, title, texts, row=ROW, size=SIZE, title_gap=22, page_gap=18, bottom=20)

    def heading(self, value: str) -> None:
        self.need(ROW * 3)
        self.y -= 6
        self.line([(MARGIN, value, "l")], bold=True, size=11)

    def rule(self) -> None:
        self.canvas.setLineWidth(0.4)
        self.canvas.line(MARGIN, self.y + ROW - 3, RIGHT, self.y + ROW - 3)


def _pdf(content: bytes, name: str) -> HttpResponse:
    response = HttpResponse(content, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{file_name(Name(name), suffix=".pdf", fallback="league")}"'
    return response


def write_season(league: League, out) -> None:
    """The season table as leagues print it: points won and lost apart, deductions with
    their reasons, promotion and relegation, the cross table of match days, "As of"."""
    seasons = season_tables(league.groups.select_related("league"))
    names = [str(p.result.team) for s in seasons for p in s.table] + [why for s in seasons for _t, _p, why in s.notes]
    title = f"{league}: {_('Season table')}"
    doc = _Writer(out, title, names)
    doc.line([(MARGIN, _("As of %(date)s") % {"date": formats.date_format(as_of(seasons), "SHORT_DATE_FORMAT")}, "l")])
    columns = (MARGIN + 24, MARGIN + 34, RIGHT - 300, RIGHT - 240, RIGHT - 180, RIGHT - 125, RIGHT - 75, RIGHT)
    zones = {"promotion": "↑ " + _("promotion"), "relegation": "↓ " + _("relegation")}
    for season in seasons:
        doc.heading(season.group.name)
        status = _("binding") if season.binding else _("provisional: not every match day is binding")
        doc.line([(MARGIN, status, "l")], size=8)
        head = [_("Place"), _("Team"), _("Match days"), _("Game points"), _("Points won"), _("Points lost")]
        doc.line(
            [(x, text, "l" if i == 1 else "r") for i, (x, text) in enumerate(zip(columns, head, strict=False))]
            + [(columns[6], _("Deducted"), "r")],
            bold=True,
            size=8,
        )
        doc.rule()
        for row in season.rows:
            place, r = row["place"], row["place"].result
            cells = [
                (columns[0], str(place.place), "r"),
                (columns[1], fit(str(r.team), doc.regular, SIZE, columns[2] - columns[1] - 50), "l"),
                (columns[2], str(r.matchdays), "r"),
                (columns[3], str(r.game_points), "r"),
                (columns[4], points_text(r.won), "r"),
                (columns[5], points_text(r.lost), "r"),
                (columns[6], f"-{points_text(r.deducted)}*" if r.deducted else "", "r"),
                (columns[7], zones.get(row["zone"], ""), "r"),
            ]
            doc.line(cells)
        for team, points, reason in season.notes:
            note = _("%(team)s, points deducted: %(points)s") % {
                "team": team.name,
                "points": points_text(points),
            }
            doc.line([(MARGIN, fit(f"* {note}: {reason}", doc.regular, 8, RIGHT - MARGIN), "l")], size=8)
        if season.days:
            _cross_table(doc, season)
    doc.finish()


def _cross_table(doc: _Writer, season) -> None:
    """Each team's league points won:lost per match day, a column a day."""
    doc.need(ROW * 3)
    doc.y -= 4
    doc.line([(MARGIN, _("Match days (cross table)"), "l")], bold=True, size=8)
    numbers = season.numbers
    step = min(50.0, (RIGHT - MARGIN - 200) / max(len(numbers), 1))
    first = MARGIN + 150 + step
    doc.line([(first + step * i, str(number), "r") for i, number in enumerate(numbers)], bold=True, size=8)
    for row in season.rows:
        cells = [(MARGIN, fit(str(row["place"].result.team), doc.regular, 8, 140), "l")]
        cells += [(first + step * i, score_line(r.won, r.lost) if r else "·", "r") for i, r in enumerate(row["days"])]
        doc.line(cells, size=8)


def season_response(league: League) -> HttpResponse:
    out = io.BytesIO()
    write_season(league, out)
    return _pdf(out.getvalue(), f"{league}-season")
