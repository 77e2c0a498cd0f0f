"""The ranking as a PDF (printing's conventions: A4, the office's fonts, one line per
player, the title repeated on every page) and as CSV/XLSX (core.tabular, the one writer).

Fixed English column names in the files, as the tournament workbook's; the PDF in the
reader's language. The figures are the stored lines' (rankings.compute)."""

from __future__ import annotations

import io
from collections.abc import Iterator

from django.http import HttpResponse
from django.utils import formats, timezone
from django.utils.translation import gettext as _

from core.filenames import Name, file_name
from core.tabular import CSV_TYPE, XLSX_TYPE, Sheet, write_csv, write_xlsx
from printing.documents.common import MARGIN, PAGE_WIDTH, PageWriter, fit, wrap

from .models import Ranking, RankingLine
from .pages import rules_summary

RIGHT = PAGE_WIDTH - MARGIN
ROW = 13.0
SIZE = 8.5
COLUMNS = ("Place", "Name", "Club", "Value", "Counted", "Played", "Missed", "Penalty")


def lines_of(ranking: Ranking, category: str) -> Iterator[RankingLine]:
    fields = ("place", "shared", "name", "club", "value", "counted", "played", "missed", "penalty")
    query = RankingLine.objects.filter(ranking=ranking, category=category).order_by("position").only(*fields)
    return query.iterator(chunk_size=2000)


def rows(ranking: Ranking, category: str) -> Iterator[tuple]:
    for line in lines_of(ranking, category):
        yield (line.place, line.name, line.club, line.value, line.counted, line.played, line.missed, line.penalty)


def _download(content: bytes, content_type: str, ranking: Ranking, category: str, suffix: str) -> HttpResponse:
    response = HttpResponse(content, content_type=content_type)
    parts = [Name(str(ranking))] + ([Name(category)] if category else [])
    name = file_name(*parts, suffix=suffix, fallback="Ranking")
    disposition = "inline" if suffix == ".pdf" else "attachment"
    response["Content-Disposition"] = f'{disposition}; filename="{name}"'
    return response


def csv_response(ranking: Ranking, category: str) -> HttpResponse:
    out = io.StringIO()
    write_csv(out, COLUMNS, rows(ranking, category))
    return _download(out.getvalue().encode("utf-8"), CSV_TYPE, ranking, category, ".csv")


def xlsx_response(ranking: Ranking, category: str) -> HttpResponse:
    out = io.BytesIO()
    title = (category or "Ranking")[:31]
    write_xlsx(out, [Sheet(title, COLUMNS, rows(ranking, category), styled=True, widths={"Name": 28, "Club": 24})])
    return _download(out.getvalue(), XLSX_TYPE, ranking, category, ".xlsx")


def write_pdf(ranking: Ranking, category: str, out) -> None:
    """The ranking list: the rules in one block, then place, name, club, the figure, results
    counted of played, missed and penalty; unranked players (short of the minimum) last."""
    lines = list(lines_of(ranking, category))
    title = f"{ranking}" + (f": {category}" if category else "")
    x = (MARGIN + 22, MARGIN + 30, MARGIN + 230, RIGHT - 150, RIGHT - 95, RIGHT - 45, RIGHT)
    head = [
        (x[0], _("Place"), "r"),
        (x[1], _("Name"), "l"),
        (x[2], _("Club"), "l"),
        (x[3], _("Value"), "r"),
        (x[4], _("Counted"), "r"),
        (x[5], _("Missed"), "r"),
        (x[6], _("Penalty"), "r"),
    ]
    doc = PageWriter(out, title, [f"{line.name} {line.club}" for line in lines], row=ROW, size=SIZE, head=head)
    rules = " · ".join(f"{label}: {value}" for label, value in rules_summary(ranking))
    for part in wrap(rules, doc.regular, 7, RIGHT - MARGIN, lines=4):
        doc.line([(MARGIN, part, "l")], size=7)
    if ranking.computed_at:
        when = formats.date_format(timezone.localtime(ranking.computed_at), "Y-m-d H:i")
        doc.line([(MARGIN, _("Computed %(when)s.") % {"when": when}, "l")], size=7)
    doc.y -= 4
    doc.line(head, bold=True)
    for line in lines:
        place = "" if line.place is None else f"{line.place}."
        doc.line(
            [
                (x[0], place, "r"),
                (x[1], fit(line.name, doc.regular, SIZE, x[2] - x[1] - 6), "l"),
                (x[2], fit(line.club, doc.regular, SIZE, x[3] - x[2] - 50), "l"),
                (x[3], line.value, "r"),
                (x[4], f"{line.counted}/{line.played}", "r"),
                (x[5], str(line.missed), "r"),
                (x[6], str(line.penalty), "r"),
            ]
        )
    doc.finish()


def pdf_response(ranking: Ranking, category: str) -> HttpResponse:
    out = io.BytesIO()
    write_pdf(ranking, category, out)
    return _download(out.getvalue(), "application/pdf", ranking, category, ".pdf")
