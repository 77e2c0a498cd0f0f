"""The settlement sheet of a table: 5.5.5 in game points and the fee account in money.

Part one follows the book's example: a. individual totals, b. x number of participants,
c. overall total, d. settlement = b - c, and the table of transactions (what each player
receives from each other). Part two is the money of the tournament's rule tables (see
:mod:`skat.fees`): entry and list fee, lost-game fees, passed-out fees, table money by
place at the table, each player's balance, and where the table's money goes.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal

from django.utils.formats import number_format
from django.utils.translation import gettext as _

from money.ledger import TableSettlement
from skat.fees import distribute

from .common import MARGIN, PAGE_HEIGHT, PAGE_WIDTH, Text, choose_fonts, fit, new_canvas, wrap

ROW = 14.0
SIZE = 8.5
LABEL_WIDTH = 215.0


def money(value: Decimal) -> str:
    return number_format(value, decimal_pos=2)


def points(value: int) -> str:
    return f"+{value}" if value > 0 else str(value)


class SettlementWriter:
    def __init__(
        self, canvas, fonts: tuple[str, str], tournament: str, date: str, percent: int, capped: bool = True
    ) -> None:
        self.canvas = canvas
        self.font, self.bold = fonts
        self.text = Text(canvas)
        self.tournament = tournament
        self.date = date
        self.percent = percent
        #: The tournament's choice: table money at most what the table collects, or in full.
        self.capped = capped

    def grid(self, top: float, label_width: float, columns: int, col_width: float, rows: Sequence) -> float:
        """Rows of (label, cells, bold) under ``top``; returns the y below the table."""
        c = self.canvas
        t = self.text
        right = MARGIN + label_width + columns * col_width
        path = c.beginPath()
        y = top
        for i, (label, cells, bold) in enumerate(rows):
            font = self.bold if bold else self.font
            # The first row names the players: up to two lines each.
            lines = [wrap(cell, font, SIZE, col_width - 6) for cell in cells] if i == 0 else [[c] for c in cells]
            height = ROW + (SIZE + 1) * (max((len(x) for x in lines), default=1) - 1)
            y -= height
            t.left(MARGIN + 3, y + height - ROW + 4, fit(label, font, SIZE, label_width - 6), font, SIZE)
            for k, cell_lines in enumerate(lines):
                for j, line in enumerate(cell_lines):
                    x = MARGIN + label_width + (k + 1) * col_width - 4
                    t.right(x, y + height - ROW + 4 - j * (SIZE + 1), line, font, SIZE)
            path.moveTo(MARGIN, y)
            path.lineTo(right, y)
        bottom = y
        path.moveTo(MARGIN, top)
        path.lineTo(right, top)
        for x in [MARGIN, MARGIN + label_width] + [MARGIN + label_width + (k + 1) * col_width for k in range(columns)]:
            path.moveTo(x, top)
            path.lineTo(x, bottom)
        c.setLineWidth(0.4)
        c.drawPath(path)
        return bottom

    def heading(self, y: float, text: str) -> float:
        self.text.left(MARGIN, y - 12, text, self.bold, 11)
        return y - 18

    def page(self, item: TableSettlement) -> None:
        """One table's settlement page: the game points settled (5.5.5), who pays whom, the
        fee account, where the money goes, and the lines to sign."""
        top = PAGE_HEIGHT - MARGIN
        right = PAGE_WIDTH - MARGIN
        self.title(item, top, right)
        n = item.size
        col = (right - MARGIN - LABEL_WIDTH) / (n + 1)
        names = [f"{s.number} {s.name}" for s in item.seats]
        y = self.game_points(item, top - 40, col, names)
        y = self.transactions(item, y - 10, col, names)
        y = self.fee_account(item, y - 10, col, names)
        y = self.money_share(item, y - 10, col)
        self.signatures(y - 46, (right - MARGIN) / (n + 1), names)
        self.text.flush()
        self.canvas.showPage()

    def title(self, item: TableSettlement, top: float, right: float) -> None:
        """The table, its series and tournament, how far its sheet is, and whether it is final."""
        t = self.text
        t.left(MARGIN, top - 14, _("Settlement"), self.bold, 14)
        t.right(right, top - 16, _("Table %(number)s") % {"number": item.table}, self.bold, 18)
        series = _("Series %(number)s") % {"number": item.series}
        line = " · ".join(p for p in (self.tournament, self.date, series) if p)
        t.left(MARGIN, top - 28, fit(line, self.font, 9, 380), self.font, 9)
        progress = _("%(entered)s of %(deals)s deals entered, %(passed)s passed out") % {
            "entered": item.entered,
            "deals": item.deals,
            "passed": item.passed_out,
        }
        t.right(right, top - 28, progress, self.font, 8)
        if not item.confirmed:
            # Only a confirmed sheet is final (5.5.3): money settled on it may have to be taken back.
            t.left(MARGIN, top - 38, _("Provisional: this sheet is not confirmed yet (5.5.3)."), self.bold, 8)

    def game_points(self, item: TableSettlement, y: float, col: float, head: list[str]) -> float:
        n = item.size
        y = self.heading(y, _("Settlement of the game points (5.5.5)"))
        overall = sum(r.points for r in item.ratings)
        rows = [
            (_("Players"), head, True),
            (_("a. Individual totals"), [points(r.points) for r in item.ratings] + [points(overall)], False),
            (
                _("b. x number of participants (%(n)s)") % {"n": n},
                [points(r.points * n) for r in item.ratings],
                False,
            ),
            (_("c. Overall total (sum of line a)"), [str(overall)] * n, False),
            (_("d. Settlement = b - c (game points)"), [points(v) for v in item.settlement], True),
        ]
        return self.grid(y, LABEL_WIDTH, n + 1, col, rows)

    def transactions(self, item: TableSettlement, y: float, col: float, head: list[str]) -> float:
        y = self.heading(y, _("Table of transactions: the row's player receives from the column's"))
        rows = [(_("receives from"), [*head, _("total")], True)]
        for seat, row, total in zip(item.seats, item.transactions, item.settlement, strict=True):
            cells = ["" if i == seat.number - 1 else points(v) for i, v in enumerate(row)] + [points(total)]
            rows.append((f"{seat.number} {seat.name}", cells, False))
        return self.grid(y, LABEL_WIDTH, item.size + 1, col, rows)

    def fee_account(self, item: TableSettlement, y: float, col: float, head: list[str]) -> float:
        y = self.heading(y, _("Fee account"))
        accounts = item.accounts
        total = item.account
        rows = [
            (_("Players"), [*head, _("table")], True),
            (_("Rating (extended Seeger-Fabian)"), [str(r.rating) for r in item.ratings] + [""], False),
            (_("Place at the table"), [str(a.place) for a in accounts] + [""], False),
            (
                _("Games lost"),
                [str(a.lost_games) for a in accounts] + [str(sum(a.lost_games for a in accounts))],
                False,
            ),
            (_("Entry fee"), [money(a.entry_fee) for a in accounts] + [money(total.entry_fees)], False),
            (_("List fee"), [money(a.list_fee) for a in accounts] + [money(total.list_fees)], False),
            (_("Lost-game fees"), [money(a.lost_game_fees) for a in accounts] + [money(total.lost_game_fees)], False),
            (
                _("Passed-out fees (%(n)s passed out)") % {"n": item.passed_out},
                [money(a.passed_out_fees) for a in accounts] + [money(total.passed_out_fees)],
                False,
            ),
            (_("Pays"), [money(a.pays) for a in accounts] + [money(total.collected)], True),
            (_("Table money received"), [money(a.table_money) for a in accounts] + [money(total.table_money)], False),
            (
                _("Balance to pay (negative: paid out)"),
                [money(a.balance) for a in accounts] + [money(total.kept)],
                True,
            ),
        ]
        return self.grid(y, LABEL_WIDTH, item.size + 1, col, rows)

    def money_share(self, item: TableSettlement, y: float, col: float) -> float:
        """What the table leaves after the table money, shared between prize pool and organiser."""
        y = self.heading(y, _("Where the money goes"))
        total = item.account
        share = distribute(total.kept, self.percent)
        rows = [
            (_("Collected at this table"), [money(total.collected)], False),
            (
                _("Table money paid out (at most the table's fees)")
                if self.capped
                else _("Table money paid out in full"),
                [money(total.table_money)],
                False,
            ),
            *self.from_entry_fees(total),
            (_("Kept"), [money(share.kept)], True),
            (_("Prize pool (%(percent)s %%)") % {"percent": self.percent}, [money(share.prize_pool)], False),
            (_("Organiser"), [money(share.organiser)], False),
        ]
        return self.grid(y, LABEL_WIDTH, 1, col, rows)

    def from_entry_fees(self, total) -> list:
        """The table money the fees taken at this table did not cover: said, not hidden in
        "Kept". In full, it comes from the entry fees; at most what the table collects, from
        the list fees its players paid in advance at the desk (which are the table's too)."""
        lacking = total.table_money - (total.collected - total.entry_fees)
        if lacking <= 0:
            return []
        if self.capped:
            return [(_("Of it from the list fees paid at the desk"), [money(lacking)], False)]
        return [(_("Of it from the entry fees (the table's fees fell short)"), [money(lacking)], False)]

    def signatures(self, y: float, slot: float, names: list[str]) -> None:
        """A line to sign for every player and the cashier."""
        t = self.text
        c = self.canvas
        c.setLineWidth(0.4)
        n = len(names)
        for i in range(n + 1):
            c.line(MARGIN + i * slot + 4, y, MARGIN + (i + 1) * slot - 8, y)
            label = names[i] if i < n else _("Cashier")
            t.left(MARGIN + i * slot + 4, y - 9, fit(label, self.font, 7, slot - 12), self.font, 7)


def write_settlements(items: Sequence[TableSettlement], out, *, tournament, title: str) -> None:
    from .scoresheet import _date

    canvas = new_canvas(out, title, practice=tournament.practice)
    texts = [tournament.name] + [s.name for item in items for s in item.seats]
    writer = SettlementWriter(
        canvas,
        choose_fonts(texts),
        tournament.name,
        _date(tournament.date),
        tournament.prize_pool_percent,
        capped=tournament.table_money_from == tournament.TableMoneyFrom.TABLE,
    )
    for item in items:
        writer.page(item)
    if not items:
        canvas.drawString(MARGIN, PAGE_HEIGHT - MARGIN - 20, _("No tables."))
        canvas.showPage()
    canvas.save()
