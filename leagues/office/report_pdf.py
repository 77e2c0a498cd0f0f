"""The match report as PDF (printing.documents.common.PageWriter, the leagues' spacing):
what :func:`leagues.office.report.match_report` gathers, on A4, with a signature line
for each team's captain and for the host under the place and time of signing."""

from __future__ import annotations

import io

from django.http import HttpResponse
from django.utils import formats, timezone
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from core.filenames import Name, file_name
from leagues.documents import RIGHT, ROW, SIZE
from leagues.documents import _Writer as Writer
from leagues.models import MatchDay
from printing.documents.common import MARGIN, fit, wrap
from skat.league import points_text, score_line

from .report import Report, match_report


def _status(report: Report) -> str:
    match_day = report.match_day
    if match_day.binding:
        return _("Binding.")
    if match_day.checked_at:
        return _("Checked by the league manager; not yet binding.")
    return _("Not yet checked by the league manager.")


def _result(doc: Writer, report: Report) -> None:
    result = report.result
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
    for team, reason in report.forfeits:
        text = _("%(team)s forfeited this match day: no league points, no game points (%(reason)s).") % {
            "team": team,
            "reason": reason,
        }
        doc.line([(MARGIN, fit(text, doc.bold, SIZE, RIGHT - MARGIN), "l")], bold=True)


#: Columns of a series' seats: table, seat, player, membership number, team, score.
COLUMNS = (MARGIN + 22, MARGIN + 46, MARGIN + 56, MARGIN + 250, MARGIN + 340, RIGHT)


def _seats(doc: Writer, report: Report) -> None:
    head = [
        (COLUMNS[0], _("Table"), "r"),
        (COLUMNS[1], pgettext("at a table", "Seat"), "r"),
        (COLUMNS[2], _("Player"), "l"),
        (COLUMNS[3], _("Membership no."), "l"),
        (COLUMNS[4], _("Team"), "l"),
        (COLUMNS[5], _("Score"), "r"),
    ]
    for number, lines in enumerate(report.series, start=1):
        doc.heading(_("Series %(n)s: scores") % {"n": number})
        doc.line(head, bold=True)
        doc.rule()
        for line in lines:
            doc.line(
                [
                    (COLUMNS[0], str(line.table), "r"),
                    (COLUMNS[1], str(line.seat), "r"),
                    (COLUMNS[2], fit(line.player, doc.regular, SIZE, COLUMNS[3] - COLUMNS[2] - 6), "l"),
                    (COLUMNS[3], fit(line.membership_number or "-", doc.regular, SIZE, 84), "l"),
                    (COLUMNS[4], fit(line.team or "-", doc.regular, SIZE, COLUMNS[5] - COLUMNS[4] - 50), "l"),
                    (COLUMNS[5], str(line.score), "r"),
                ]
            )


def _players(doc: Writer, report: Report) -> None:
    if not report.players:
        return
    doc.heading(_("Players"))
    doc.line(
        [
            (MARGIN, _("Team"), "l"),
            (COLUMNS[2], _("Player"), "l"),
            (COLUMNS[3], _("Membership no."), "l"),
            (COLUMNS[4] + 60, _("Series"), "r"),
            (COLUMNS[5], _("Score"), "r"),
        ],
        bold=True,
    )
    doc.rule()
    for team, player, number, played, total in report.players:
        doc.line(
            [
                (MARGIN, fit(team or "-", doc.regular, SIZE, COLUMNS[2] - MARGIN - 6), "l"),
                (COLUMNS[2], fit(player, doc.regular, SIZE, COLUMNS[3] - COLUMNS[2] - 6), "l"),
                (COLUMNS[3], fit(number or "-", doc.regular, SIZE, 84), "l"),
                (COLUMNS[4] + 60, str(played), "r"),
                (COLUMNS[5], str(total), "r"),
            ]
        )


def _texts(doc: Writer, title: str, lines: list[str]) -> None:
    if not lines:
        return
    doc.heading(title)
    for text in lines:
        for part in wrap(text, doc.regular, SIZE, RIGHT - MARGIN, lines=12):
            doc.line([(MARGIN, part, "l")])


def _remarks(report: Report) -> list[str]:
    return [
        "{kind}, {who} ({when}, {by}): {text}".format(
            kind=remark.get_kind_display(),
            who=(_("Captain of %(team)s") % {"team": remark.team.name}) if remark.team else _("Host"),
            when=formats.date_format(timezone.localtime(remark.made_at), "SHORT_DATETIME_FORMAT"),
            by=remark.made_by.get_username() if remark.made_by else "-",
            text=" ".join(remark.text.split()),
        )
        for remark in report.remarks
    ]


def _signatures(doc: Writer, report: Report) -> None:
    match_day = report.match_day
    doc.heading(_("Signatures"))
    signing = report.signing
    if signing is not None:
        when = formats.date_format(timezone.localtime(signing.signed_at), "SHORT_DATETIME_FORMAT")
        doc.line([(MARGIN, _("Signed at %(place)s, %(when)s") % {"place": signing.place, "when": when}, "l")])
    else:
        doc.line([(MARGIN, _("Place and time of signing:"), "l")])
        doc.canvas.setLineWidth(0.6)
        doc.canvas.line(MARGIN + 140, doc.y + ROW - 2, RIGHT, doc.y + ROW - 2)
    captains = {t.pk: t.captain for t in match_day.teams.select_related("captain")}  # one query, not one a team
    teams = report.teams or sorted(match_day.teams.all(), key=lambda t: t.name)
    signers = [(_("Captain"), t.name, captains[t.pk].name if captains.get(t.pk) else "") for t in teams]
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


def write_match_report(report: Report, out) -> None:
    match_day = report.match_day
    league = match_day.group.league
    names = [place.result.team.name for place in report.result.table]
    names += [line.player for lines in report.series for line in lines]
    names += [remark.text for remark in report.remarks] + [s.place for s in report.signings]
    doc = Writer(out, f"{_('Match report')}: {league}", names)
    host = match_day.host.name if match_day.host else "-"
    doc.line([(MARGIN, f"{match_day} · {formats.date_format(match_day.date)} · {_('Host')}: {host}", "l")])
    doc.line([(MARGIN, _status(report), "l")], size=8)
    _result(doc, report)
    _seats(doc, report)
    _players(doc, report)
    if report.substitutions:
        doc.heading(_("Substitutions"))
        for s in report.substitutions:
            text = _("before series %(series)s: %(in)s for %(out)s") % {
                "series": s.before_series,
                "in": s.player_in.name,
                "out": s.player_out.name,
            }
            doc.line([(MARGIN + 10, s.team.name, "l"), (MARGIN + 140, text, "l")])
    if report.plan:
        doc.heading(_("Seating plan"))
        for number, tables in enumerate(report.plan, start=1):
            doc.line([(MARGIN, _("Series %(n)s") % {"n": number}, "l")], bold=True)
            for table, seats in enumerate(tables, start=1):
                text = fit(" · ".join(seats), doc.regular, SIZE, RIGHT - MARGIN - 60)
                doc.line([(MARGIN + 10, _("Table %(n)s") % {"n": table}, "l"), (MARGIN + 60, text, "l")])
    _texts(doc, _("Players not on a roster"), report.warnings)
    _texts(doc, _("Remarks and protests"), _remarks(report) or [_("None.")])
    _signatures(doc, report)
    doc.finish()


def match_report_response(match_day: MatchDay) -> HttpResponse:
    out = io.BytesIO()
    write_match_report(match_report(match_day), out)
    response = HttpResponse(out.getvalue(), content_type="application/pdf")
    name = file_name(Name(f"match-report-{match_day.group.name}-{match_day.number}"), suffix=".pdf", fallback="league")
    response["Content-Disposition"] = f'inline; filename="{name}"'
    return response
