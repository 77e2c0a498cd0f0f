"""The office grid: a table's paper list typed at the desk, row by row, saved whole.

For a table that kept only paper, and for the second list a scorekeeper kept on paper:
a director or referee types each deal as one short line (:mod:`skat.paperline`),
sees it valued by the rules as he types (the phone form's :class:`GameForm`, so the
engine's answer and messages are the phone's), and saves the whole list at once. Saving
goes through :func:`scoring.entry.add_game` deal by deal, exactly as the phone does
(deal order, the client id that makes a resend harmless, ``entered_by``, the sheet's
lock and sign-off), inside one transaction: one refused row and nothing is saved, the
row and its field named.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from dataclasses import dataclass

from django.db import transaction
from django.utils.translation import gettext as _

from core.rule_messages import rule_message
from skat.paperline import parse_line
from skat.rules import Outcome, RuleError, gettext_noop
from skat.sheet import dealer_seat
from tournaments.models import Table

from . import entry
from .forms import ControlEntryForm, GameForm
from .models import ControlEntry, Game, ScoresheetLine

#: The lists the grid types: the sheet (counts) and the second list (compared only).
LISTS: dict[str, tuple[type[ScoresheetLine], type[GameForm]]] = {
    "sheet": (Game, GameForm),
    "second": (ControlEntry, ControlEntryForm),
}

#: The line's field an error of the form's field belongs to (what the grid names).
_GRID_FIELD = {
    "declarer_seat": "declarer",
    "contract": "contract",
    "tops": "tops",
    "tops_kind": "tops",
    "hand": "flags",
    "schneider_announced": "flags",
    "schwarz_announced": "flags",
    "ouvert": "flags",
    "declarer_points": "points",
    "opponents_points": "points",
    "declarer_tricks": "points",
    "bid": "bid",
}


def field_label(field: str) -> str:
    """The grid's name of a field, in the reader's language."""
    labels = {
        "declarer": _("declarer"),
        "contract": _("contract"),
        "tops": _("tops"),
        "flags": _("flags"),
        "points": _("card points"),
        "bid": _("bid"),
        "deal": _("deal"),
    }
    return labels.get(field, field)


@dataclass
class GridRow:
    """One typed row: its deal, what was typed, and the form valuing it (or why not)."""

    number: int
    text: str
    client_id: str
    form: GameForm | None = None
    field: str = ""
    error: str = ""

    @property
    def empty(self) -> bool:
        return not self.text.strip()

    @property
    def outcome(self) -> Outcome | None:
        return self.form.outcome if self.form is not None and not self.error else None

    @property
    def game(self) -> ScoresheetLine | None:
        return self.form.instance if self.form is not None and not self.error else None

    @property
    def problem(self) -> str:
        """ "Deal 5, contract: 2.1.1: ..." - the row and the field named."""
        if not self.error:
            return ""
        return _("Deal %(deal)s, %(field)s: %(error)s") % {
            "deal": self.number,
            "field": field_label(self.field),
            "error": self.error,
        }


def first_row(table: Table, model: type[ScoresheetLine]) -> int:
    """The first deal the grid offers: the list's next deal (3.2.1: in turn)."""
    return entry.next_deal(table, model)


def read_row(
    table: Table, players: Mapping[int, str], form_class: type[GameForm], number: int, text: str, client_id: str = ""
) -> GridRow:
    """Read and value one row: the line read (:func:`parse_line`), then the phone's form."""
    row = GridRow(number=number, text=text, client_id=client_id or str(uuid.uuid4()))
    if row.empty:
        return row
    try:
        line = parse_line(text)
        assert line is not None  # not empty
        if line.declarer_seat is not None and line.declarer_seat not in players:
            raise RuleError(
                "declarer", gettext_noop("there is no seat {seat} at this table"), "3.1.1", seat=line.declarer_seat
            )
    except RuleError as error:
        row.field, row.error = error.field, rule_message(error)
        return row
    data = line.form_data() | {"number": str(number), "client_id": row.client_id}
    # Every seat is offered: a dealer at four named as declarer gets the rule's own words (3.2.7).
    form = form_class(data, table=table, players=dict(players))
    row.form = form
    if not form.is_valid():
        name, errors = next(iter(form.errors.items()))
        row.field = _GRID_FIELD.get(name, "deal")
        row.error = str(errors[0])
    return row


def read_rows(
    table: Table, players: Mapping[int, str], form_class: type[GameForm], start: int, posted: Mapping[str, str]
) -> list[GridRow]:
    """Every row of the grid from the posted ``line-<n>`` and ``client-<n>`` fields.

    Rows after the last typed one are left out; an empty row before it is a gap in the
    list (3.2.1: deals follow each other in turn).
    """
    rows = [
        read_row(table, players, form_class, n, posted.get(f"line-{n}", ""), posted.get(f"client-{n}", ""))
        for n in range(start, table.deals + 1)
    ]
    while rows and rows[-1].empty:
        rows.pop()
    for row in rows:
        if row.empty:
            row.field = "deal"
            row.error = rule_message(
                RuleError(
                    "deal",
                    gettext_noop("empty, but a later deal is typed: deals follow each other in turn"),
                    "3.2.1",
                )
            )
    return rows


class GridRefused(Exception):
    """The list was not saved: the row that the office refused while saving."""

    def __init__(self, row: GridRow) -> None:
        self.row = row
        super().__init__(row.problem)


@dataclass(frozen=True, slots=True)
class GridSaved:
    created: int
    resent: int


def save_rows(rows: list[GridRow], *, entered_by: str) -> GridSaved:
    """Save every row through :func:`scoring.entry.add_game` in one transaction, or none.

    Raises :class:`GridRefused` for the first row with an error (none is saved then),
    and for a row the office refuses while saving (the deal taken meanwhile, the sheet
    confirmed, the series finished): the transaction is rolled back whole.
    """
    for row in rows:
        if row.error or row.form is None:
            raise GridRefused(row)
    created = resent = 0
    with transaction.atomic():
        for row in rows:
            try:
                saved = entry.add_game(row.form, entered_by=entered_by)
            except RuleError as error:
                row.field, row.error = "deal", rule_message(error)
                raise GridRefused(row) from None
            if saved.created:
                created += 1
            else:
                resent += 1
    return GridSaved(created=created, resent=resent)


def dealer_of(number: int, table: Table) -> int:
    return dealer_seat(number, table.size)
