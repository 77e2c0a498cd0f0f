"""The printed scoresheet (Spielliste) of one table, 5.5.2: blank or filled.

One row per deal: number, dealer, declarer, base value or null, tops with/without,
hand, schneider, announced, schwarz, announced, ouvert, game value, overbid, won/lost
and each player's running total (the declarer's cell changes). A thick line closes each
round (3.2.1); at a table of four the dealer's column is shaded, he sits out (3.2.7).
The foot: games won and lost, the rating computation of :mod:`skat.rating` and a
signature line per player and for the scorekeeper. A deal a referee changed carries a
star at the right of its declarer cell, explained under the grid of its page.

Nothing here values a game: the filled form prints the stored fields of
:class:`scoring.models.Game` and adds them up with :func:`scoring.tablesheet.build`.

Speed: everything that is the same on every sheet of a size (grid, column labels, deal
numbers, shading, round lines, foot labels) is one PDF form per page layout, drawn once
per document and placed on each page; a page then only adds its names and numbers.

The page geometry (rows, columns, labels) is :mod:`printing.documents.scoresheet_layout`;
what a sheet prints is prepared by :mod:`printing.documents.scoresheet_data`, whose
:func:`sheet_inputs` and types are re-exported here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import BinaryIO

from django.utils.translation import get_language
from django.utils.translation import gettext as _
from reportlab.pdfgen.canvas import Canvas

from scoring import tablesheet
from scoring.describe import announced
from skat.rating import LOSS_POINTS, WIN_POINTS, opponent_bonus
from skat.rules import BASE_VALUES, Contract
from skat.sheet import dealer_seat

from .common import MARGIN, PAGE_HEIGHT, Text, choose_fonts, fit, new_canvas, width, wrap_whole
from .scoresheet_data import SeatInfo, SheetInput, _date, sheet_inputs
from .scoresheet_layout import (
    CELL,
    CORRECTED,
    FOOT_ROWS,
    GAME_COLUMNS,
    HEADER_TOP,
    LABELS_HEIGHT,
    PLAYERS_WIDTH,
    PLAYERS_X,
    RIGHT,
    ROW,
    ROWS_PER_PAGE,
    ROWS_TOP,
    SIGNATURE_GAP,
    SMALL,
    TITLE_HEIGHT,
    WIDTH,
    X,
    column_labels,
)

__all__ = ["ScoresheetWriter", "SeatInfo", "SheetInput", "_date", "sheet_inputs", "write_sheets"]

_CONTRACT_BASE = {contract.value: str(base) for contract, base in BASE_VALUES.items()}


class ScoresheetWriter:
    """Draws scoresheets onto one canvas; reuses its page forms across sheets."""

    def __init__(self, canvas: Canvas, fonts: tuple[str, str]) -> None:
        self.canvas = canvas
        self.font, self.bold = fonts
        self.labels = column_labels()
        self.forms: set[str] = set()
        self.text = Text(canvas)
        self.passed_out = _("passed out")
        self.carried = _("carried forward")
        self.void = _("void")
        self.corrected = f"{CORRECTED} {_('corrected by a referee')}"
        self.mark = "x"

    # -- static page parts ----------------------------------------------------------
    def _form(self, size: int, first: int, rows: int, carried: bool, foot: bool) -> str:
        name = f"sheet{size}_{first}_{rows}_{int(carried)}_{int(foot)}_{get_language()}"
        if name in self.forms:
            return name
        self.forms.add(name)
        c = self.canvas
        c.beginForm(name)
        text = Text(c)
        players_width = PLAYERS_WIDTH / size
        top = ROWS_TOP
        body_top = top - (ROW if carried else 0)
        bottom = body_top - rows * ROW
        # Shading: the dealer sits out at a table of four (3.2.7).
        if size == 4:
            c.setFillGray(0.86)
            path = c.beginPath()
            for i in range(rows):
                seat = dealer_seat(first + i, size)
                path.rect(PLAYERS_X + (seat - 1) * players_width, body_top - (i + 1) * ROW, players_width, ROW)
            c.drawPath(path, stroke=0, fill=1)
            c.setFillGray(0)
        # Thin grid: every row and every column.
        c.setLineWidth(0.3)
        grid = c.beginPath()
        labels_top = HEADER_TOP - TITLE_HEIGHT
        for i in range(rows + 1):
            y = body_top - i * ROW
            grid.moveTo(MARGIN, y)
            grid.lineTo(RIGHT, y)
        xs = [X[col.key] for col in GAME_COLUMNS] + [PLAYERS_X + i * players_width for i in range(size + 1)]
        for x in xs:
            grid.moveTo(x, labels_top)
            grid.lineTo(x, bottom)
        grid.moveTo(MARGIN, labels_top)
        grid.lineTo(RIGHT, labels_top)
        if carried:
            grid.moveTo(MARGIN, top)
            grid.lineTo(RIGHT, top)
        c.drawPath(grid)
        # Thick lines: under the labels and after each round (3.2.1).
        c.setLineWidth(1.1)
        thick = c.beginPath()
        thick.moveTo(MARGIN, body_top)
        thick.lineTo(RIGHT, body_top)
        thick.moveTo(PLAYERS_X, labels_top)
        thick.lineTo(PLAYERS_X, bottom)
        for i in range(rows):
            if (first + i) % size == 0:
                y = body_top - (i + 1) * ROW
                thick.moveTo(MARGIN, y)
                thick.lineTo(RIGHT, y)
        thick.moveTo(MARGIN, bottom)
        thick.lineTo(RIGHT, bottom)
        c.drawPath(thick)
        c.setLineWidth(0.3)
        # Column labels: rotated in the narrow columns.
        for col in GAME_COLUMNS:
            label = self.labels[col.key]
            if col.rotated:
                c.saveState()
                c.translate(X[col.key] + col.width / 2 + 2.3, labels_top - LABELS_HEIGHT + 3)
                c.rotate(90)
                # A long label (German "Gewonnen / verloren") is set smaller to stay in its box.
                room = LABELS_HEIGHT - 6
                c.setFont(self.font, min(SMALL, SMALL * room / max(width(label, self.font, SMALL), 1)))
                c.drawString(0, 0, label)
                c.restoreState()
            else:
                text.left(X[col.key] + 2, top + 3, fit(label, self.font, SMALL, col.width - 3), self.font, SMALL)
        # Deal numbers.
        for i in range(rows):
            y = body_top - (i + 1) * ROW + 3
            text.right(X["dealer"] - 2, y, str(first + i), self.font, CELL)
        if carried:
            text.left(X["dealer"] + 2, top - ROW + 3, self.carried, self.bold, CELL)
        if foot:
            self._foot_labels(text, size, bottom)
        text.flush()
        c.endForm()
        return name

    def _foot_labels(self, text: Text, size: int, bottom: float) -> None:
        c = self.canvas
        bonus = opponent_bonus(size)
        labels = (
            _("Games won"),
            _("Games lost"),
            _("Game points"),
            _("+ %(points)s x games won") % {"points": WIN_POINTS},
            _("- %(points)s x games lost") % {"points": LOSS_POINTS},
            _("+ %(bonus)s x games lost by the others at the table") % {"bonus": bonus},
            _("Total (extended Seeger-Fabian rating)"),
        )
        c.setLineWidth(0.3)
        path = c.beginPath()
        for i, label in enumerate(labels):
            y = bottom - (i + 1) * ROW
            path.moveTo(MARGIN + 120, y)
            path.lineTo(RIGHT, y)
            font = self.bold if i == len(labels) - 1 else self.font
            text.right(PLAYERS_X - 4, y + 3, label, font, CELL)
        for i in range(size + 1):
            x = PLAYERS_X + i * PLAYERS_WIDTH / size
            path.moveTo(x, bottom)
            path.lineTo(x, bottom - len(labels) * ROW)
        c.drawPath(path)
        c.setLineWidth(1.1)
        c.line(PLAYERS_X, bottom - (len(labels) - 1) * ROW, RIGHT, bottom - (len(labels) - 1) * ROW)
        c.setLineWidth(0.3)
        # Signatures: one per player and the scorekeeper (Listenführer).
        y = bottom - len(labels) * ROW - SIGNATURE_GAP
        slot = (RIGHT - MARGIN) / (size + 1)
        for i in range(size + 1):
            x = MARGIN + i * slot
            c.line(x + 4, y, x + slot - 8, y)
        text.left(MARGIN + size * slot + 4, y - 9, _("Scorekeeper"), self.font, SMALL)
        text.left(MARGIN, y + SIGNATURE_GAP - 10, _("Signatures:"), self.font, SMALL)

    # -- one sheet --------------------------------------------------------------------
    def sheet(self, data: SheetInput) -> None:
        """Draw one table's scoresheet: as many pages as its deals need."""
        size = data.size
        games = data.games
        rows = None
        if games is not None:
            built = tablesheet.build(size, data.deals, games)
            rows = built.rows
        deals = max(data.deals, games[-1].number if games else 0)
        pages = max(1, -(-deals // ROWS_PER_PAGE))
        names = {s.number: s.name for s in data.seats}
        players_width = PLAYERS_WIDTH / size
        short = {n: fit(name, self.font, CELL, WIDTH["dealer"] - 4) for n, name in names.items()}
        short_declarer = {n: fit(name, self.font, CELL, WIDTH["declarer"] - 4) for n, name in names.items()}
        # A corrected deal's declarer leaves room for the star at the cell's right.
        room = WIDTH["declarer"] - 6 - width(CORRECTED, self.bold, CELL)
        marked_declarer = {n: fit(name, self.font, CELL, room) for n, name in names.items()}
        by_number = {row.game.number: row for row in rows} if rows else {}
        totals = [0] * size
        for page in range(pages):
            first = page * ROWS_PER_PAGE + 1
            count = min(ROWS_PER_PAGE, deals - first + 1)
            last_page = page == pages - 1
            carried = page > 0
            form = self._form(size, first, count, carried, last_page)
            self.canvas.doForm(form)
            self._title(data, page + 1, pages)
            t = self.text
            top = ROWS_TOP
            if carried:
                y = top - ROW + 3
                for i, total in enumerate(totals):
                    t.right(PLAYERS_X + (i + 1) * players_width - 3, y, str(total), self.bold, CELL)
            body_top = top - (ROW if carried else 0)
            marked = False
            for i in range(count):
                number = first + i
                y = body_top - (i + 1) * ROW + 3
                t.left(X["dealer"] + 2, y, short.get(dealer_seat(number, size), ""), self.font, CELL)
                row = by_number.get(number)
                if row is None:
                    continue
                game = row.game
                if getattr(game, "correction_reason", None):
                    marked = True
                    t.right(X["base"] - 2, y, CORRECTED, self.bold, CELL)
                    self._game(game, y, marked_declarer)
                else:
                    self._game(game, y, short_declarer)
                if game.declarer_seat is not None:
                    seat = game.declarer_seat
                    total = row.totals[seat - 1]
                    t.right(PLAYERS_X + seat * players_width - 3, y, str(total), self.bold, CELL)
                totals = list(row.totals)
            bottom = body_top - count * ROW
            if marked:  # under the grid, left of the foot's labels
                t.left(MARGIN + 2, bottom - ROW + 3, fit(self.corrected, self.font, SMALL, 115), self.font, SMALL)
            if last_page:
                self._foot(data, built.ratings if rows is not None else None, bottom)
            t.flush()
            self.canvas.showPage()

    def _game(self, game, y: float, short_declarer: dict[int, str]) -> None:
        t = self.text
        font = self.font
        if game.passed_out:
            t.left(X["declarer"] + 2, y, self.passed_out, font, CELL)
            return
        t.left(X["declarer"] + 2, y, short_declarer.get(game.declarer_seat, "?"), font, CELL)
        null = game.contract == Contract.NULL
        mark = self.mark

        def tick(key: str) -> None:
            t.centre(X[key] + WIDTH[key] / 2, y, mark, font, CELL)

        if null:
            t.centre(X["base"] + WIDTH["base"] / 2, y, "Null", font, SMALL)
        else:
            t.centre(X["base"] + WIDTH["base"] / 2, y, _CONTRACT_BASE.get(game.contract, "?"), font, CELL)
            if game.tops:
                key = "without" if game.tops_kind == "without" else "with"
                t.centre(X[key] + WIDTH[key] / 2, y, str(game.tops), font, CELL)
            # 5.2.6: ouvert includes schwarz announced, which includes schneider announced.
            schneider_announced, schwarz_announced = announced(game)
            if schneider_announced:
                tick("schneider_announced")
            if schwarz_announced:
                tick("schwarz_announced")
            if game.schneider:
                tick("schneider")
            if game.schwarz:
                tick("schwarz")
        if game.hand:
            tick("hand")
        if game.ouvert:
            tick("ouvert")
        if game.overbid:
            tick("overbid")
        t.right(X["value"] + WIDTH["value"] - 3, y, str(game.value), font, CELL)
        if game.voided:
            # Voided by a referee's correction: the row stays, scoring nothing.
            t.right(X["score"] + WIDTH["score"] - 3, y, self.void, font, SMALL)
            return
        score = f"+{game.score}" if game.score > 0 else str(game.score)
        t.right(X["score"] + WIDTH["score"] - 3, y, score, self.bold if game.lost else font, CELL)

    def _title(self, data: SheetInput, page: int, pages: int) -> None:
        t = self.text
        top = HEADER_TOP
        t.left(MARGIN, top - 14, _("Scoresheet"), self.bold, 14)
        table = _("Table %(number)s") % {"number": data.table}
        series = _("Series %(number)s") % {"number": data.series}
        # The series beside the table number, never at the end of a line a long venue cuts:
        # table 1 of series 1 and of series 2 are told apart at a glance.
        t.right(RIGHT, top - 16, f"{series} · {table}", self.bold, 18)
        line = " · ".join(part for part in (data.tournament, data.date, data.venue) if part)
        t.left(MARGIN, top - 27, fit(line, self.font, 9, 400), self.font, 9)
        size_text = _("%(size)s players, %(deals)s deals") % {"size": data.size, "deals": data.deals}
        page_text = _("page %(page)s of %(pages)s") % {"page": page, "pages": pages}
        t.right(RIGHT, top - 27, f"{size_text} · {page_text}", self.font, 7)
        seats = "   ".join(f"{s.number} {s.name}" + (f" ({s.club})" if s.club else "") for s in data.seats)
        # Every name whole (smaller type when the line is long), never cut with "…".
        seats_lines, seats_size = wrap_whole(seats, self.font, 8, RIGHT - MARGIN, lines=1, smallest=5.5)
        if len(seats_lines) > 1:  # the clubs stand under the column heads too
            seats_lines, seats_size = wrap_whole(
                "   ".join(f"{s.number} {s.name}" for s in data.seats), self.font, 8, RIGHT - MARGIN, lines=1
            )
        t.left(MARGIN, top - 40, seats_lines[0], self.font, seats_size)
        # The players' column heads: seat number, name (whole, on two lines), club.
        width = PLAYERS_WIDTH / data.size
        labels_top = top - TITLE_HEIGHT
        for i, seat in enumerate(data.seats):
            x = PLAYERS_X + i * width + 3
            t.left(x, labels_top - 12, str(seat.number), self.bold, 10)
            name, size = wrap_whole(seat.name, self.bold, CELL, width - 5)
            leading = 9 if len(name) <= 2 else size + 1
            for k, line in enumerate(name):
                t.left(x, labels_top - 23 - leading * k, line, self.bold, size)
            if seat.club:
                y = labels_top - 23 - leading * len(name) - 1
                t.left(x, y, fit(seat.club, self.font, SMALL, width - 5), self.font, SMALL)

    def _foot(self, data: SheetInput, ratings, bottom: float) -> None:
        t = self.text
        size = data.size
        width = PLAYERS_WIDTH / size
        if ratings is not None:
            for i, r in enumerate(ratings):
                x = PLAYERS_X + (i + 1) * width - 3
                values = (
                    r.won,
                    r.lost,
                    r.points,
                    WIN_POINTS * r.won,
                    -LOSS_POINTS * r.lost,
                    r.bonus,
                    r.rating,
                )
                for k, value in enumerate(values):
                    font = self.bold if k == len(values) - 1 else self.font
                    t.right(x, bottom - (k + 1) * ROW + 3, str(value), font, CELL)
        y = bottom - FOOT_ROWS * ROW - SIGNATURE_GAP
        slot = (RIGHT - MARGIN) / (size + 1)
        for i, seat in enumerate(data.seats):
            # Whole, as in the heads: the players sign by their names.
            lines, size = wrap_whole(f"{seat.number} {seat.name}", self.font, SMALL, slot - 12)
            for k, line in enumerate(lines):
                t.left(MARGIN + i * slot + 4, y - 9 - (size + 1) * k, line, self.font, size)


def write_sheets(inputs: Sequence[SheetInput], out: BinaryIO, title: str, *, practice: bool = False) -> None:
    texts = [text for data in inputs for text in data.texts()]
    canvas = new_canvas(out, title, practice=practice)
    writer = ScoresheetWriter(canvas, choose_fonts(texts))
    for data in inputs:
        writer.sheet(data)
    if not inputs:
        canvas.drawString(MARGIN, PAGE_HEIGHT - MARGIN - 20, _("No tables."))
        canvas.showPage()
    canvas.save()
