"""The league's PDFs: the season table, and the writer the match report (Spielbericht,
leagueoffice.report_pdf) prints with too."""

from __future__ import annotations

import io

from django.http import HttpResponse
from django.utils.translation import gettext as _

from core.filenames import Name, file_name
from printing.documents.common import MARGIN, PAGE_WIDTH, PageWriter, fit
from skat.league import score_line

from .models import League
from .results import season_tables

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
    seasons = season_tables(league.groups.select_related("league"))
    names = [str(p.result.team) for s in seasons for p in s.table]
    title = f"{league}: {_('Season table')}"
    doc = _Writer(out, title, names)
    columns = (MARGIN + 24, MARGIN + 34, RIGHT - 170, RIGHT - 90, RIGHT)
    for season in seasons:
        doc.heading(season.group.name)
        status = _("binding") if season.binding else _("provisional: not every match day is binding")
        doc.line([(MARGIN, status, "l")], size=8)
        doc.line(
            [
                (columns[0], _("Place"), "r"),
                (columns[1], _("Team"), "l"),
                (columns[2], _("Match days"), "r"),
                (columns[3], _("Game points"), "r"),
                (columns[4], _("Points"), "r"),
            ],
            bold=True,
        )
        doc.rule()
        for place in season.table:
            r = place.result
            doc.line(
                [
                    (columns[0], str(place.place), "r"),
                    (columns[1], fit(str(r.team), doc.regular, SIZE, columns[2] - columns[1] - 60), "l"),
                    (columns[2], str(r.matchdays), "r"),
                    (columns[3], str(r.game_points), "r"),
                    (columns[4], score_line(r.won, r.lost), "r"),
                ]
            )
    doc.finish()


def season_response(league: League) -> HttpResponse:
    out = io.BytesIO()
    write_season(league, out)
    return _pdf(out.getvalue(), f"{league}-season")
