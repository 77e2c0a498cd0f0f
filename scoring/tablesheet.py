"""The running scoresheet of one table, as on the paper list (5.5.2).

Adds up the stored scores (never re-values a game) into each player's running total,
leaves voided games out of the rating (they stay on the sheet, scoring nothing), and
marks round boundaries: a round is one deal by each player (3.2.1).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.conf import settings
from django.utils.formats import localize
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext

from skat.rating import Rating, rate_table

from .describe import game_html, game_short_html
from .models import Game


@dataclass(frozen=True, slots=True)
class Row:
    game: Game
    totals: tuple[int, ...]
    round_end: bool


@dataclass(frozen=True, slots=True)
class Sheet:
    size: int
    deals: int
    rows: tuple[Row, ...]
    ratings: tuple[Rating, ...]
    #: Deals entered before the first row held (:func:`after`: only the newest row is held).
    before: int = 0

    @property
    def entered(self) -> int:
        return self.before + len(self.rows)

    @property
    def complete(self) -> bool:
        return self.entered >= self.deals

    @property
    def rounds(self) -> int:
        return self.deals // self.size

    @property
    def current_round(self) -> int:
        return min(self.entered // self.size + 1, self.rounds)

    @property
    def totals(self) -> tuple[int, ...]:
        return self.rows[-1].totals if self.rows else (0,) * self.size


def build(size: int, deals: int, games: Sequence[Game]) -> Sheet:
    totals = [0] * size
    rows = []
    for game in games:
        if game.declarer_seat is not None:
            totals[game.declarer_seat - 1] += game.score  # 0 for a voided game
        rows.append(Row(game=game, totals=tuple(totals), round_end=game.number % size == 0))
    # A voided game stays on the sheet (its row, struck through) but is neither won nor lost.
    declared = [(g.declarer_seat - 1, g.won, g.score) for g in games if g.declarer_seat is not None and not g.voided]
    ratings = rate_table(size, declared)
    return Sheet(size=size, deals=deals, rows=tuple(rows), ratings=tuple(ratings))


#: What :func:`after` reads of each deal of a list, in deal order (one ``values_list`` query).
LINE_FIELDS = ("number", "declarer_seat", "score", "won", "voided")


def after(size: int, deals: int, game: Game, lines: Sequence[tuple]) -> Sheet:
    """The sheet as the table link's answer to a deal entered needs it: only ``game``'s row
    (the deal just appended), with the running totals and ratings of every deal so far.

    ``lines``: :data:`LINE_FIELDS` of each deal of the list in deal order, ``game`` last:
    the same sums as :func:`build`, without loading and describing every game again.
    """
    totals = [0] * size
    declared = []
    for _number, seat, score, won, voided in lines:
        if seat is not None:
            totals[seat - 1] += score  # 0 for a voided game
            if not voided:
                declared.append((seat - 1, won, score))
    row = Row(game=game, totals=tuple(totals), round_end=game.number % size == 0)
    ratings = rate_table(size, declared)
    return Sheet(size=size, deals=deals, rows=(row,), ratings=tuple(ratings), before=len(lines) - 1)


def rows_html(sheet: Sheet, players: Sequence[str]) -> SafeString:
    """The body rows of the entry page's sheet (templates/scoring/_sheet_table.html), as HTML.

    The same markup the template loop wrote, built here because it is re-rendered on
    every entered deal: a template loop over the players in every row (for the
    declarer's name and each running total) cost more than the rest of the request.
    Every text is escaped; numbers are localized as the template would.
    """
    names = [conditional_escape(name) for name in players]
    # Without thousand separators Django's localize() writes an int as str() does; the
    # sheet writes five numbers a row, so skip its settings look-ups when it can.
    number = localize if settings.USE_THOUSAND_SEPARATOR else str
    corrected = conditional_escape(gettext("corrected by a referee"))
    out = []
    for row in sheet.rows:
        g = row.game
        classes = ("round-end" if row.round_end else "") + (" lost" if g.lost else "") + (" void" if g.voided else "")
        out.append(f'\n    <tr class="{classes}">\n      <td class="num">{number(g.number)}</td>\n      ')
        declarer = g.declarer_seat
        if g.passed_out:
            out.append(f'<td colspan="3" class="muted game">{game_html(g, number)}{_corrected(g, corrected)}</td>')
        else:
            # The game in words, and abbreviated for a phone's narrow column (office.css picks one).
            game = (
                f'<span class="game-full">{game_html(g, number)}</span>'
                f'<span class="game-short">{game_short_html(g, number)}</span>{_corrected(g, corrected)}'
            )
            name = names[declarer - 1] if declarer is not None and 0 < declarer <= len(names) else ""
            out.append(f'\n      <td>{name}</td>\n      <td class="game">{game}</td>\n      ')
            if g.voided:
                score = '<span class="muted">0</span>'
            elif g.won:
                score = f"+{number(g.score)}"
            else:
                score = f'<span class="lost">{number(g.score)}</span>'
            out.append(f'<td class="num score">{score}</td>')
        out.append("\n      ")
        for seat, total in enumerate(row.totals, start=1):
            if seat == declarer:
                out.append(f'<td class="num declarer">{number(total)}</td>')
            elif not g.passed_out:
                out.append(f'<td class="num"><span class="muted">{number(total)}</span></td>')
            else:
                out.append('<td class="num"></td>')
        out.append("\n    </tr>\n  ")
    return mark_safe("".join(out))  # every value above escaped or a number


def _corrected(g: Game, word: str) -> str:
    """The mark of a deal a referee changed, its latest reason as the title; "" for others.

    ``correction_reason`` is annotated by GameQuerySet.with_correction_reason (absent: not marked).
    """
    reason = getattr(g, "correction_reason", None)
    if not reason:
        return ""
    return f' <em class="mark" title="{conditional_escape(reason)}">{word}</em>'
