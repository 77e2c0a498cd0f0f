"""The scoresheet's (5.5.2) page geometry: row heights, font sizes, columns, labels.

Shared by everything that draws on the sheet (:mod:`printing.documents.scoresheet`);
the x position and width of every game column are computed once, here.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _

from .common import MARGIN, PAGE_HEIGHT, PAGE_WIDTH

#: 5.5.2: 48 deals (12 rounds at a table of four) fit one page; longer sheets continue.
ROWS_PER_PAGE = 48
ROW = 11.5
CELL = 7.5
SMALL = 6.5
HEADER_TOP = PAGE_HEIGHT - MARGIN
TITLE_HEIGHT = 48.0
LABELS_HEIGHT = 58.0
ROWS_TOP = HEADER_TOP - TITLE_HEIGHT - LABELS_HEIGHT
FOOT_ROWS = 7
SIGNATURE_GAP = 28.0

#: The mark of a deal a referee changed (referees.models.Correction), explained on its page.
CORRECTED = "*"


@dataclass(frozen=True, slots=True)
class Column:
    key: str
    width: float
    rotated: bool = True


#: The game columns, left to right; the players' columns share the rest of the width.
GAME_COLUMNS = (
    Column("number", 16, rotated=False),
    Column("dealer", 60, rotated=False),
    Column("declarer", 68, rotated=False),
    Column("base", 20),
    Column("with", 14),
    Column("without", 14),
    Column("hand", 14),
    Column("schneider", 14),
    Column("schneider_announced", 14),
    Column("schwarz", 14),
    Column("schwarz_announced", 14),
    Column("ouvert", 14),
    Column("value", 24),
    Column("overbid", 14),
    Column("score", 30),
)
X: dict[str, float] = {}
_x = MARGIN
for _column in GAME_COLUMNS:
    X[_column.key] = _x
    _x += _column.width
PLAYERS_X = _x
PLAYERS_WIDTH = PAGE_WIDTH - MARGIN - PLAYERS_X
RIGHT = PAGE_WIDTH - MARGIN
WIDTH = {c.key: c.width for c in GAME_COLUMNS}


def column_labels() -> dict[str, str]:
    """The column labels in the active language (Skat terms of the German list)."""
    return {
        "number": _("No."),
        "dealer": _("Dealer"),
        "declarer": _("Declarer"),
        "base": _("Base value"),
        "with": _("Tops with"),
        "without": _("Tops without"),
        "hand": _("Hand"),
        "schneider": _("Schneider"),
        "schneider_announced": _("announced"),
        "schwarz": _("Schwarz"),
        "schwarz_announced": _("announced"),
        "ouvert": _("Ouvert"),
        "value": _("Game value"),
        "overbid": _("Overbid"),
        "score": _("Won / lost"),
    }
