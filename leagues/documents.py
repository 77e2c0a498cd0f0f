"""The league's PDFs: the season table and the match report (Spielbericht) the captains sign.

The match report: the teams, their line-ups per series, each series' game points, the
league points, the substitutions, whether the league manager checked it or it is
binding, and a signature line for each team's captain and for the host.
"""

from __future__ import annotations

import io

from django.http import HttpResponse
from django.utils import formats
from django.utils.translation import gettext as _

from core.filenames import Name, file_name
from printing.documents.common import MARGIN, PAGE_WIDTH, PageWriter, fit
from skat.league import points_text, score_line

from .lineups import line_ups, seating_of
from .models import League, MatchDay
from .results import as_of, match_day_result, season_tables

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


def write_match_report(match_day: MatchDay, out) -> None:
    result = match_day_result(match_day)
    series = line_ups(match_day)
    teams = [p.result.team for p in result.table] or list(match_day.teams.all())
    league = match_day.group.league
    names = [t.name for t in teams] + [n for s in series for players in s.values() for n in players]
    title = _("Match report")
    doc = _Writer(out, f"{title}: {league}", names)
    host = match_day.host.name if match_day.host else "-"
    doc.line([(MARGIN, f"{match_day} · {formats.date_format(match_day.date)} · {_('Host')}: {host}", "l")])
    if match_day.binding:
        doc.line([(MARGIN, _("Binding."), "l")], size=8)
    elif match_day.checked_at:
        doc.line([(MARGIN, _("Checked by the league manager; not yet binding."), "l")], size=8)
    else:
        doc.line([(MARGIN, _("Not yet checked by the league manager."), "l")], size=8)

    doc.heading(_("Result"))
    count = result.series
    step = min(60.0, 260.0 / max(count, 1))
    first = RIGHT - 120 - step * (count - 1)
    head = [(MARGIN + 20, _("Place"), "r"), (MARGIN + 30, _("Team"), "l")]
    head += [(first + step * i, _("Series %(n)s") % {"n": i + 1}, "r") for i in range(count)]
    head += [(RIGHT - 55, _("Game points"), "r"), (RIGHT, _("Points"), "r")]
    doc.line(head, bold=True)
    doc.rule()
    for place in result.table:
        r = place.result
        row = [(MARGIN + 20, str(place.place), "r"), (MARGIN + 30, fit(r.team.name, doc.regular, SIZE, 150), "l")]
        row += [
            (first + step * i, "-" if p is None else f"{p} ({points_text(w)})", "r")
            for i, (p, w) in enumerate(zip(r.series_points, r.series_won, strict=True))
        ]
        row += [(RIGHT - 55, str(r.game_points), "r"), (RIGHT, score_line(r.won, r.lost), "r")]
        doc.line(row)
    doc.line([(MARGIN, _("Series: game points (league points won in the series)."), "l")], size=7)

    doc.heading(_("Line-ups"))
    for number, teams_playing in enumerate(series, start=1):
        doc.line([(MARGIN, _("Series %(n)s") % {"n": number}, "l")], bold=True)
        for team in teams:
            players = ", ".join(teams_playing.get(team.name, [])) or _("did not play")
            doc.line([(MARGIN + 10, fit(team.name, doc.regular, SIZE, 120), "l"), (MARGIN + 140, players, "l")])
    substitutions = list(match_day.substitutions.select_related("team", "player_in", "player_out"))
    if substitutions:
        doc.heading(_("Substitutions"))
        for s in substitutions:
            text = _("before series %(series)s: %(in)s for %(out)s") % {
                "series": s.before_series,
                "in": s.player_in.name,
                "out": s.player_out.name,
            }
            doc.line([(MARGIN + 10, s.team.name, "l"), (MARGIN + 140, text, "l")])

    plan = seating_of(match_day)
    if plan:
        doc.heading(_("Seating plan"))
        for number, tables in enumerate(plan, start=1):
            doc.line([(MARGIN, _("Series %(n)s") % {"n": number}, "l")], bold=True)
            for table, seats in enumerate(tables, start=1):
                text = fit(" · ".join(seats), doc.regular, SIZE, RIGHT - MARGIN - 60)
                doc.line([(MARGIN + 10, _("Table %(n)s") % {"n": table}, "l"), (MARGIN + 60, text, "l")])

    doc.heading(_("Signatures"))
    signers = [(_("Captain"), t.name, t.captain.name if t.captain else "") for t in teams]
    signers.append((_("Host"), match_day.host.name if match_day.host else "", ""))
    for role, who, name in signers:
        doc.need(ROW * 3)
        doc.y -= ROW
        doc.canvas.setLineWidth(0.6)
        doc.canvas.line(MARGIN + 260, doc.y, RIGHT, doc.y)
        doc.text.left(MARGIN, doc.y, f"{role}, {who}" if who else role, doc.bold, SIZE)
        if name:
            doc.text.left(MARGIN, doc.y - 11, name, doc.regular, 8)
        doc.y -= ROW * 1.5
    doc.finish()


def match_report_response(match_day: MatchDay) -> HttpResponse:
    out = io.BytesIO()
    write_match_report(match_day, out)
    return _pdf(out.getvalue(), f"match-report-{match_day.group.name}-{match_day.number}")
