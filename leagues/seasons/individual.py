"""The league-wide individual ranking (Einzelwertung): every player's series of the season,
ranked by the league's rules (skat.individual), as a page, PDF, CSV and XLSX.

A series counts with the player's rating at his table (standings.places.rated_seats,
the standings' own sum); only players who played for a team count, and not on a match day
their team forfeited (DOMAIN: a team that forfeits gets neither league points nor game
points; its players' series of that day count for nobody). Five queries for the whole
league, whatever its size: the match days, the forfeits, the players' teams, the seats and
the tables' totals.
"""

from __future__ import annotations

import datetime
import io
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass

from django.http import HttpResponse
from django.utils import formats, timezone
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _

from core.filenames import Name, file_name
from core.tabular import CSV_TYPE, XLSX_TYPE, Sheet, write_csv, write_xlsx
from leagues.models import League, MatchDay
from printing.documents.common import MARGIN, PAGE_WIDTH, PageWriter, fit
from skat.individual import rank_individuals
from standings.places import rated_seats, stored_seat_totals
from tournaments.models import Registration, Seat, Table

from .models import Forfeit
from .services import rules_of

COLUMNS = (
    gettext_lazy("Place"),
    gettext_lazy("Player"),
    gettext_lazy("Team"),
    gettext_lazy("Group"),
    gettext_lazy("Series played"),
    gettext_lazy("Series counted"),
    gettext_lazy("Total"),
    gettext_lazy("Best series"),
    gettext_lazy("Average"),
)


@dataclass(frozen=True)
class Line:
    place: int | None
    name: str
    team: str
    group: str
    played: int
    counted: int
    total: int
    best: int
    average: float

    def cells(self) -> tuple:
        return (
            self.place,
            self.name,
            self.team,
            self.group,
            self.played,
            self.counted,
            self.total,
            self.best,
            self.average,
        )


@dataclass
class Ranking:
    lines: list[Line]
    #: "Stand": the latest match day counted, or today.
    as_of: datetime.date


def individual_ranking(league: League) -> Ranking:
    """Every player of the league's match days with his series, ranked by the league's rules."""
    rules = rules_of(league)
    days = list(
        MatchDay.objects.filter(group__league=league, tournament__isnull=False)
        .order_by("date", "number")
        .values_list("tournament_id", "group__name", "date")
    )
    ids = [tid for tid, _group, _date in days]
    group_of = {tid: group for tid, group, _date in days}
    as_of = max((d for _t, _g, d in days), default=None) or timezone.localdate()
    if not ids:
        return Ranking([], as_of)
    # A team's forfeit in force: its players' series of that match day count for nobody.
    forfeited = set(
        Forfeit.objects.filter(match_day__tournament__in=ids, withdrawn_at__isnull=True).values_list(
            "match_day__tournament_id", "team__name"
        )
    )
    team_of = {
        (t, p): name
        for t, p, name in Registration.objects.filter(tournament__in=ids, team__isnull=False)
        .order_by()
        .values_list("tournament_id", "player_id", "team__name")
    }
    rows = (
        Seat.objects.filter(series__tournament__in=ids)
        .order_by()
        .values_list("table_id", "number", "player_id", "table__size", "series__tournament_id", "player__name")
    )
    series: dict[int, list[int]] = defaultdict(list)
    names: dict[int, str] = {}
    last: dict[int, int] = {}
    order = {tid: n for n, tid in enumerate(ids)}
    for seat, rating in rated_seats(list(rows), stored_seat_totals(Table.objects.filter(series__tournament__in=ids))):
        _table, _number, player, _size, tournament, name = seat
        if (tournament, player) not in team_of or (tournament, team_of[tournament, player]) in forfeited:
            continue
        series[player].append(rating.rating)
        names[player] = name
        if order[tournament] >= order.get(last.get(player), -1):
            last[player] = tournament
    ranked = rank_individuals(
        series,
        best=rules.individual_best,
        minimum=rules.individual_minimum,
        tie=rules.individual_tie,
        key=lambda player: (names[player], player),
    )
    lines = [
        Line(
            r.place,
            names[r.player],
            team_of[last[r.player], r.player],
            group_of[last[r.player]],
            r.played,
            r.counted,
            r.total,
            r.best,
            r.average,
        )
        for r in ranked
    ]
    return Ranking(lines, as_of)


def _rows(ranking: Ranking) -> Iterator[tuple]:
    return (line.cells() for line in ranking.lines)


def file_response(league: League, kind: str) -> HttpResponse:
    """The ranking as "pdf", "csv" (German: a decimal comma and German headers) or "xlsx"."""
    ranking = individual_ranking(league)
    stem = Name(league)
    if kind == "csv":
        out = io.StringIO()
        write_csv(out, COLUMNS, _rows(ranking), language=get_language())
        response = HttpResponse(out.getvalue().encode("utf-8"), content_type=CSV_TYPE)
        disposition = "attachment"
    elif kind == "xlsx":
        binary = io.BytesIO()
        write_xlsx(binary, [Sheet(_("Individual ranking")[:31], COLUMNS, _rows(ranking), styled=True)])
        response = HttpResponse(binary.getvalue(), content_type=XLSX_TYPE)
        disposition = "attachment"
    else:
        binary = io.BytesIO()
        write_pdf(league, ranking, binary)
        response = HttpResponse(binary.getvalue(), content_type="application/pdf")
        disposition = "inline"
    name = file_name(stem, "individual", suffix=f".{kind}", fallback="league")
    response["Content-Disposition"] = f'{disposition}; filename="{name}"'
    return response


def write_pdf(league: League, ranking: Ranking, out) -> None:
    right = PAGE_WIDTH - MARGIN
    x = (MARGIN + 24, MARGIN + 32, MARGIN + 180, right - 200, right - 135, right - 65, right)
    head = [
        (x[0], _("Place"), "r"),
        (x[1], _("Player"), "l"),
        (x[2], _("Team"), "l"),
        (x[3], _("Series"), "r"),
        (x[4], _("Best series"), "r"),
        (x[5], _("Average"), "r"),
        (x[6], _("Total"), "r"),
    ]
    texts = [line.name for line in ranking.lines] + [line.team for line in ranking.lines]
    doc = PageWriter(out, f"{league}: {_('Individual ranking')}", texts, row=13, size=9, head=head, bottom=20)
    date = formats.date_format(ranking.as_of, "SHORT_DATE_FORMAT")
    doc.line([(MARGIN, _("As of %(date)s") % {"date": date}, "l")])
    doc.line(head, bold=True)
    for line in ranking.lines:
        doc.line(
            [
                (x[0], str(line.place) if line.place else "-", "r"),
                (x[1], fit(line.name, doc.regular, 9, x[2] - x[1] - 6), "l"),
                (x[2], fit(line.team, doc.regular, 9, x[3] - x[2] - 40), "l"),
                (x[3], f"{line.counted}/{line.played}", "r"),
                (x[4], str(line.best), "r"),
                (x[5], formats.number_format(line.average, 1), "r"),
                (x[6], str(line.total), "r"),
            ]
        )
    doc.finish()
