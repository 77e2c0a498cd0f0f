"""The ranking as a PDF (printing's conventions: A4, the office's fonts, one line per
player, the title repeated on every page) and as CSV/XLSX (core.tabular, the one writer).

Every file in the reader's language: the column names, and in German the CSV's decimal
comma (core.tabular); the figures are numbers a spreadsheet can sort and sum, the stored
lines' (rankings.compute keeps each exactly as printed, as text)."""

from __future__ import annotations

import hashlib
import io
from collections.abc import Callable, Iterator
from decimal import Decimal

from django.core.cache import cache
from django.http import HttpResponse
from django.utils import formats, timezone
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from core.filenames import Name, file_name
from core.tabular import CSV_TYPE, XLSX_TYPE, Sheet, write_csv, write_xlsx
from printing.documents.common import MARGIN, PAGE_WIDTH, PageWriter, fit, wrap

from .models import Ranking, RankingLine
from .pages import rules_summary

RIGHT = PAGE_WIDTH - MARGIN
ROW = 13.0
SIZE = 8.5


def columns() -> list[str]:
    """The files' column names in the active language."""
    return [_("Place"), _("Name"), _("Club"), _("Value"), _("Counted"), _("Played"), _("Missed"), _("Penalty")]


def figure(value: str) -> int | Decimal:
    """A stored figure ("-3.38", "412") as the number a spreadsheet sorts and sums."""
    return Decimal(value) if "." in value else int(value)


def lines_of(ranking: Ranking, category: str) -> Iterator[RankingLine]:
    fields = ("place", "shared", "name", "club", "value", "counted", "played", "missed", "penalty")
    query = RankingLine.objects.filter(ranking=ranking, category=category).order_by("position").only(*fields)
    return query.iterator(chunk_size=2000)


def rows(ranking: Ranking, category: str) -> Iterator[tuple]:
    for line in lines_of(ranking, category):
        yield (
            line.place,
            line.name,
            line.club,
            figure(line.value),
            line.counted,
            line.played,
            line.missed,
            line.penalty,
        )


#: Seconds a file of the ranking is kept (it is made anew after each computation anyway).
KEPT = 24 * 60 * 60


def _kept(ranking: Ranking, category: str, suffix: str, make: Callable[[], bytes]) -> bytes:
    """The file as made once per computation, language and category: the 3,000 lines'
    PDF takes a few tenths of a second, and a ranking being computed in the background
    shares the CPU with the requests meanwhile."""
    when = ranking.computed_at.timestamp() if ranking.computed_at else 0
    state = f"{ranking.pk}:{ranking.computed}:{when}:{ranking.updating}:{get_language()}:{suffix}:{category}"
    key = "rankings:file:" + hashlib.sha256(state.encode()).hexdigest()
    content = cache.get(key)
    if content is None:
        content = make()
        cache.set(key, content, KEPT)
    return content


def _download(content: bytes, content_type: str, ranking: Ranking, category: str, suffix: str) -> HttpResponse:
    response = HttpResponse(content, content_type=content_type)
    parts = [Name(str(ranking))] + ([Name(category)] if category else [])
    name = file_name(*parts, suffix=suffix, fallback="Ranking")
    disposition = "inline" if suffix == ".pdf" else "attachment"
    response["Content-Disposition"] = f'{disposition}; filename="{name}"'
    return response


def csv_response(ranking: Ranking, category: str) -> HttpResponse:
    def make() -> bytes:
        out = io.StringIO()
        write_csv(out, columns(), rows(ranking, category), language=get_language())
        return out.getvalue().encode("utf-8")

    return _download(_kept(ranking, category, ".csv", make), CSV_TYPE, ranking, category, ".csv")


def xlsx_response(ranking: Ranking, category: str) -> HttpResponse:
    def make() -> bytes:
        out = io.BytesIO()
        title = (category or "Ranking")[:31]
        widths = {_("Name"): 28, _("Club"): 24}
        write_xlsx(out, [Sheet(title, columns(), rows(ranking, category), styled=True, widths=widths)])
        return out.getvalue()

    return _download(_kept(ranking, category, ".xlsx", make), XLSX_TYPE, ranking, category, ".xlsx")


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
    if ranking.updating:
        doc.line([(MARGIN, _("Being updated: a newer ranking is being computed."), "l")], size=7)
    doc.y -= 4
    doc.line(head, bold=True)
    for line in lines:
        place = "" if line.place is None else f"{line.place}."
        doc.line(
            [
                (x[0], place, "r"),
                (x[1], fit(line.name, doc.regular, SIZE, x[2] - x[1] - 6), "l"),
                (x[2], fit(line.club, doc.regular, SIZE, x[3] - x[2] - 50), "l"),
                (x[3], formats.number_format(figure(line.value), use_l10n=True), "r"),
                (x[4], f"{line.counted}/{line.played}", "r"),
                (x[5], str(line.missed), "r"),
                (x[6], str(line.penalty), "r"),
            ]
        )
    doc.finish()


def pdf_response(ranking: Ranking, category: str) -> HttpResponse:
    def make() -> bytes:
        out = io.BytesIO()
        write_pdf(ranking, category, out)
        return out.getvalue()

    return _download(_kept(ranking, category, ".pdf", make), "application/pdf", ranking, category, ".pdf")
