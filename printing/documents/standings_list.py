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
    """``ranked`` is :func:`standings.ranking.standings`'s answer, best first; ``charts``
    the running-score charts of the appendix (:mod:`.appendix`), in ranking order;
    ``finality`` :func:`standings.ranking.finality`'s answer (None: no status line).
    ``teams``: ``ranked`` holds :class:`standings.ranking.TeamStanding` entries, printed
    with the team's players where a player's club stands. ``category``: the name of the
    category whose own ranking ``ranked`` is, printed in the title."""
    from .scoresheet import _date

    title = _("Team ranking list") if teams else _("Ranking list")
    scope = _("series %(number)s only") % {"number": series_number} if series_number else _("overall")
    if category:
        scope = f"{scope} · {category}"
    canvas = new_canvas(out, f"{tournament.name}: {title} ({scope})", practice=tournament.practice)
    second = [e.item.players if teams else e.item.club for e in ranked]
    texts = [tournament.name, tournament.venue] + [e.item.name for e in ranked] + second
    font, bold = choose_fonts(texts)
    labels = _labels()
    if teams:
        labels |= {"name": _("Team"), "club": ""}
    text = Text(canvas)
    x_place = MARGIN
    x_name = x_place + PLACE_WIDTH + 6
    numbers_width = sum(w for _key, w in NUMBERS)
    x_club = x_name + NAME_WIDTH
    club_width = RIGHT - numbers_width - x_club
    # A team takes two lines: its name, then its players (best first) across the name
    # and club columns, so a team of four to eight names still fits.
    row_height = 2 * ROW if teams else ROW
    per_page = int((TOP - ROW - BOTTOM) // row_height)
    ranking_pages = max(1, -(-len(ranked) // per_page))
    pages = ranking_pages + pages_needed(len(charts))
    line = " · ".join(p for p in (tournament.name, _date(tournament.date), tournament.venue) if p)
    status = status_line(finality)
    # Bold, as large as fits one line: the printout pinned up must not look final.
    status_size = 10.0
    while status_size > 6 and width(status, bold, status_size) > RIGHT - MARGIN:
        status_size -= 0.5
    page = 0

    def header(heading: str) -> None:
        """The heading, the tournament and the page number of every page, ranking and appendix."""
        nonlocal page
        page += 1
        top = PAGE_HEIGHT - MARGIN
        text.left(MARGIN, top - 16, f"{heading}: {scope}", bold, 15)
        text.left(MARGIN, top - 30, fit(line, font, 9, RIGHT - MARGIN - 90), font, 9)
        text.right(RIGHT, top - 30, _("page %(page)s of %(pages)s") % {"page": page, "pages": pages}, font, 8)
        if status:
            text.left(MARGIN, top - 44, fit(status, bold, status_size, RIGHT - MARGIN), bold, status_size)

    rule = _(
        "Rating = game points + 50 per game won - 50 per game lost + 40 (table of three) or 30 (table of four) "
        "for every game lost by another player at the table. Ties: more games won, then fewer games lost, then by lot."
    )
    if teams:
        rule += " " + _("A team's every figure is the sum of its players' (whoever of the team played).")
    for index in range(ranking_pages):
        header(title)
        y = TOP - ROW + 4
        text.right(x_place + PLACE_WIDTH, y, labels["place"], bold, SIZE)
        text.left(x_name, y, labels["name"], bold, SIZE)
        text.left(x_club, y, labels["club"], bold, SIZE)
        x = RIGHT - numbers_width
        for key, w in NUMBERS:
            x += w
            text.right(x - 2, y, labels[key], bold, SIZE)
        entries = ranked[index * per_page : (index + 1) * per_page]
        # Every other row lightly shaded, so a line is easy to follow across the page.
        canvas.setFillGray(0.92)
        shade = canvas.beginPath()
        for i in range(1, len(entries), 2):
            shade.rect(MARGIN, TOP - ROW - (i + 1) * row_height, RIGHT - MARGIN, row_height)
        canvas.drawPath(shade, stroke=0, fill=1)
        canvas.setFillGray(0)
        canvas.setLineWidth(0.8)
        canvas.line(MARGIN, TOP - ROW, RIGHT, TOP - ROW)
        for i, entry in enumerate(entries):
            y = TOP - ROW - i * row_height - ROW + 4
            item = entry.item
            r = entry.rating
            text.right(x_place + PLACE_WIDTH, y, f"{entry.place}.", font, SIZE)
            if teams:
                text.left(x_name, y, fit(item.name, bold, SIZE, RIGHT - numbers_width - x_name - 6), bold, SIZE)
                players = fit(item.players, font, SMALL, RIGHT - numbers_width - x_name - 6)
                text.left(x_name, y - ROW + 1, players, font, SMALL)
            else:
                text.left(x_name, y, fit(item.name, font, SIZE, NAME_WIDTH - 6), font, SIZE)
                text.left(x_club, y, fit(item.club, font, SIZE, club_width - 6), font, SIZE)
            values = (r.points, r.won, r.lost, r.bonus, r.rating, item.tables)
            x = RIGHT - numbers_width
            for (key, w), value in zip(NUMBERS, values, strict=True):
                x += w
                text.right(x - 2, y, str(value), bold if key == "rating" else font, SIZE)
        for k, rule_line in enumerate(wrap(rule, font, 6.5, RIGHT - MARGIN)):
            text.left(MARGIN, MARGIN + 10 - 8 * k, rule_line, font, 6.5)
        if not entries:
            text.left(MARGIN, TOP - 2 * ROW + 4, _("No results yet."), font, SIZE)
        text.flush()
        canvas.showPage()
    if charts:
        if series_number:
            note = _("The running total of game points deal by deal in series %(number)s; ticks every 12 deals.") % {
                "number": series_number
            }
        else:
            note = _(
                "The running total of game points deal by deal over all series; a dashed line where a series begins; "
                "ticks every 12 deals."
            )
        draw_appendix(canvas, text, charts, fonts=(font, bold), header=header, note=note)
    canvas.save()
