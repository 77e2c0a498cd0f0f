"""The printed ranking list (Rangliste) of one tournament (overall or one series): many pages, the header row on each.

Columns as the standings page: place, name, club, game points, games won and lost,
the bonus for games lost by others, the rating (extended Seeger-Fabian) and the tables
played. The order is :func:`skat.rating.rank`'s, printed at the foot of every page.
Under the title of every page, ranking and appendix, whether it is final: while a sheet
is unconfirmed (5.5.3) or a series not finished, the list pinned up in the hall says
it is provisional.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from .appendix import ChartEntry, draw_appendix, pages_needed
from .common import MARGIN, PAGE_HEIGHT, PAGE_WIDTH, Text, choose_fonts, fit, new_canvas, width, wrap

ROW = 13.0
SIZE = 8.5
#: The team ranking's line of players under each team's name.
SMALL = 7.0
TOP = PAGE_HEIGHT - MARGIN - 52
BOTTOM = MARGIN + 26
RIGHT = PAGE_WIDTH - MARGIN

#: (key, width, right-aligned); name and club share what is left.
NUMBERS = (("points", 48), ("won", 30), ("lost", 30), ("bonus", 40), ("rating", 46), ("tables", 36))
PLACE_WIDTH = 34.0
NAME_WIDTH = 160.0


def _labels() -> dict[str, str]:
    return {
        "place": _("Place"),
        "name": _("Name"),
        "club": _("Club"),
        "points": _("Game points"),
        "won": _("Won"),
        "lost": _("Lost"),
        "bonus": _("Bonus"),
        "rating": _("Rating"),
        "tables": _("Tables"),
    }


def status_line(finality) -> str:
    """The line under every page's title: provisional while a sheet is unconfirmed or a
    series not finished; once all is final, the standings page's own sentence; nothing
    before there is any sheet."""
    if finality is None or (finality.final and not finality.sheets):
        return ""
    if finality.final:
        return _("All sheets are confirmed: the standings are final.")
    counts = {"open": finality.sheets - finality.confirmed, "sheets": finality.sheets}
    if not finality.unfinished:
        return (
            ngettext(
                "Provisional: %(open)s of %(sheets)s sheet not yet confirmed (5.5.3).",
                "Provisional: %(open)s of %(sheets)s sheets not yet confirmed (5.5.3).",
                finality.sheets,
            )
            % counts
        )
    numbers = ", ".join(map(str, finality.unfinished))
    if finality.confirmed == finality.sheets:
        return ngettext(
            "Provisional: series %(numbers)s is not finished yet.",
            "Provisional: series %(numbers)s are not finished yet.",
            len(finality.unfinished),
        ) % {"numbers": numbers}
    return ngettext(
        "Provisional: series %(numbers)s is not finished yet; %(open)s of %(sheets)s sheets not yet confirmed "
        "(5.5.3).",
        "Provisional: series %(numbers)s are not finished yet; %(open)s of %(sheets)s sheets not yet confirmed "
        "(5.5.3).",
        len(finality.unfinished),
    ) % {"numbers": numbers, **counts}


def write_standings_list(
    ranked: Sequence,
    out,
    *,
    tournament,
    series_number: int | None,
    charts: Sequence[ChartEntry] = (),
    finality=None,
    teams: bool = False,
    category: str = "",
) -> None:
    """``ranked`` is :func:`standings.places.standings`'s answer, best first; ``charts``
    the running-score charts of the appendix (:mod:`.appendix`), in ranking order;
    ``finality`` :func:`standings.places.finality`'s answer (None: no status line).
    ``teams``: ``ranked`` holds :class:`standings.places.TeamStanding` entries, printed
    with the team's players where a player's club stands. ``category``: the name of the
    category whose own ranking ``ranked`` is, printed in the title."""
    title = _("Team ranking list") if teams else _("Ranking list")
    scope = _("series %(number)s only") % {"number": series_number} if series_number else _("overall")
    if category:
        scope = f"{scope} · {category}"
    canvas = new_canvas(out, f"{tournament.name}: {title} ({scope})", practice=tournament.practice)
    second = [e.item.players if teams else e.item.club for e in ranked]
    texts = [tournament.name, tournament.venue] + [e.item.name for e in ranked] + second
    writer = _RankingWriter(canvas, choose_fonts(texts), tournament, scope, status_line(finality), teams=teams)
    per_page = writer.per_page
    ranking_pages = max(1, -(-len(ranked) // per_page))
    writer.pages = ranking_pages + pages_needed(len(charts))
    rule = _rule(teams)
    for index in range(ranking_pages):
        writer.ranking_page(title, ranked[index * per_page : (index + 1) * per_page], rule)
    if charts:
        fonts = (writer.font, writer.bold)
        draw_appendix(
            canvas, writer.text, charts, fonts=fonts, header=writer.header, note=_appendix_note(series_number)
        )
    canvas.save()


def _rule(teams: bool) -> str:
    """How the rating is made and ties are broken, printed at the foot of every page."""
    rule = _(
        "Rating = game points + 50 per game won - 50 per game lost + 40 (table of three) or 30 (table of four) "
        "for every game lost by another player at the table. Ties: more games won, then fewer games lost, then by lot."
    )
    if teams:
        rule += " " + _("A team's every figure is the sum of its players' (whoever of the team played).")
    return rule


def _appendix_note(series_number: int | None) -> str:
    if series_number:
        return _("The running total of game points deal by deal in series %(number)s; ticks every 12 deals.") % {
            "number": series_number
        }
    return _(
        "The running total of game points deal by deal over all series; a dashed line where a series begins; "
        "ticks every 12 deals."
    )


class _RankingWriter:
    """The ranking list's columns, and every page's header and rows."""

    def __init__(self, canvas, fonts: tuple[str, str], tournament, scope: str, status: str, *, teams: bool) -> None:
        from .scoresheet import _date

        self.canvas = canvas
        self.text = Text(canvas)
        self.font, self.bold = fonts
        self.scope = scope
        self.teams = teams
        self.labels = _labels()
        if teams:
            self.labels |= {"name": _("Team"), "club": ""}
        self.x_name = MARGIN + PLACE_WIDTH + 6
        self.numbers_width = sum(w for _key, w in NUMBERS)
        self.x_club = self.x_name + NAME_WIDTH
        self.club_width = RIGHT - self.numbers_width - self.x_club
        # A team takes two lines: its name, then its players (best first) across the name
        # and club columns, so a team of four to eight names still fits.
        self.row_height = 2 * ROW if teams else ROW
        self.per_page = int((TOP - ROW - BOTTOM) // self.row_height)
        self.line = " · ".join(p for p in (tournament.name, _date(tournament.date), tournament.venue) if p)
        self.status = status
        # Bold, as large as fits one line: the printout pinned up must not look final.
        self.status_size = 10.0
        while self.status_size > 6 and width(status, self.bold, self.status_size) > RIGHT - MARGIN:
            self.status_size -= 0.5
        self.page = 0
        self.pages = 0

    def header(self, heading: str) -> None:
        """The heading, the tournament and the page number of every page, ranking and appendix."""
        text, font, bold = self.text, self.font, self.bold
        self.page += 1
        top = PAGE_HEIGHT - MARGIN
        text.left(MARGIN, top - 16, f"{heading}: {self.scope}", bold, 15)
        text.left(MARGIN, top - 30, fit(self.line, font, 9, RIGHT - MARGIN - 90), font, 9)
        text.right(
            RIGHT, top - 30, _("page %(page)s of %(pages)s") % {"page": self.page, "pages": self.pages}, font, 8
        )
        if self.status:
            text.left(
                MARGIN, top - 44, fit(self.status, bold, self.status_size, RIGHT - MARGIN), bold, self.status_size
            )

    def ranking_page(self, title: str, entries: Sequence, rule: str) -> None:
        self.header(title)
        self.column_heads()
        self.shade(len(entries))
        for i, entry in enumerate(entries):
            self.entry(TOP - ROW - i * self.row_height - ROW + 4, entry)
        for k, rule_line in enumerate(wrap(rule, self.font, 6.5, RIGHT - MARGIN)):
            self.text.left(MARGIN, MARGIN + 10 - 8 * k, rule_line, self.font, 6.5)
        if not entries:
            self.text.left(MARGIN, TOP - 2 * ROW + 4, _("No results yet."), self.font, SIZE)
        self.text.flush()
        self.canvas.showPage()

    def column_heads(self) -> None:
        text, bold, labels = self.text, self.bold, self.labels
        y = TOP - ROW + 4
        text.right(MARGIN + PLACE_WIDTH, y, labels["place"], bold, SIZE)
        text.left(self.x_name, y, labels["name"], bold, SIZE)
        text.left(self.x_club, y, labels["club"], bold, SIZE)
        x = RIGHT - self.numbers_width
        for key, w in NUMBERS:
            x += w
            text.right(x - 2, y, labels[key], bold, SIZE)

    def shade(self, rows: int) -> None:
        """Every other row lightly shaded, so a line is easy to follow across the page."""
        canvas = self.canvas
        canvas.setFillGray(0.92)
        shade = canvas.beginPath()
        for i in range(1, rows, 2):
            shade.rect(MARGIN, TOP - ROW - (i + 1) * self.row_height, RIGHT - MARGIN, self.row_height)
        canvas.drawPath(shade, stroke=0, fill=1)
        canvas.setFillGray(0)
        canvas.setLineWidth(0.8)
        canvas.line(MARGIN, TOP - ROW, RIGHT, TOP - ROW)

    def entry(self, y: float, entry) -> None:
        """One player's (or team's) line: place, name, club (or the team's players), the figures."""
        text, font, bold = self.text, self.font, self.bold
        item = entry.item
        r = entry.rating
        text.right(MARGIN + PLACE_WIDTH, y, f"{entry.place}.", font, SIZE)
        if self.teams:
            text.left(
                self.x_name, y, fit(item.name, bold, SIZE, RIGHT - self.numbers_width - self.x_name - 6), bold, SIZE
            )
            players = fit(item.players, font, SMALL, RIGHT - self.numbers_width - self.x_name - 6)
            text.left(self.x_name, y - ROW + 1, players, font, SMALL)
        else:
            text.left(self.x_name, y, fit(item.name, font, SIZE, NAME_WIDTH - 6), font, SIZE)
            text.left(self.x_club, y, fit(item.club, font, SIZE, self.club_width - 6), font, SIZE)
        values = (r.points, r.won, r.lost, r.bonus, r.rating, item.tables)
        x = RIGHT - self.numbers_width
        for (key, w), value in zip(NUMBERS, values, strict=True):
            x += w
            text.right(x - 2, y, str(value), bold if key == "rating" else font, SIZE)
