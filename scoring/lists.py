"""The table's two lists compared deal by deal.

Practice at the table (DOMAIN): two lists are kept, by seats 1 and 3, and signed by all
players; if they differ, the seat-1 list counts unless the players or a referee agree
otherwise. The office mirrors it: the sheet (:class:`scoring.models.Game`, entered
through the table link) is the list that counts; the second list
(:class:`scoring.models.ControlEntry`, entered through the table's control link) counts
nothing and is only compared with it, so that a slip of either scorekeeper shows up
while the deal is fresh, and before the players confirm the sheet (5.5.3). The one
whose list is wrong corrects his last deal, or a referee decides.

Two entries of a deal agree when they are the same line of the sheet: passed out or
not, the same declarer, the same game, the same value and the same score. A deal
entered on one list only is not a difference (one scorekeeper is behind), and neither
is a deal a referee has decided on the sheet (voided or corrected: the referee's
decision stands whatever the second list says).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from django.db.models import Exists, OuterRef, Q
from django.utils.translation import gettext as _

from . import hooks
from .describe import game_text
from .models import ConflictingEntry, ControlEntry, Game, ScoresheetLine

#: What makes a line of the sheet: the same in both lists, or the lists differ.
LINE = ("passed_out", "declarer_seat", "contract", "value", "won", "score")


def line(deal: ScoresheetLine) -> tuple:
    return tuple(getattr(deal, name) for name in LINE)


def decided(game: ScoresheetLine) -> bool:
    """A referee's decision on the sheet: voided, or changed by a correction (its reason
    annotated by GameQuerySet.with_correction_reason)."""
    return bool(game.voided or getattr(game, "correction_reason", None))


def describe(deal: ScoresheetLine, names: Sequence[str]) -> str:
    """A deal as the lists show it: "Anna: Hearts with 1 hand = 30, won +30" or "passed out"
    (the game in the words of :func:`scoring.describe.game_text`, as every page says it)."""
    if deal.passed_out:
        return game_text(deal)
    seat = deal.declarer_seat or 0
    name = names[seat - 1] if 0 < seat <= len(names) else _("seat %(seat)s") % {"seat": seat}
    outcome = _("won") if deal.won else _("lost")
    return f"{name}: {game_text(deal)}, {outcome} {deal.score:+d}"


def _shown(deal: ScoresheetLine, name: str, names: Sequence[str]) -> str:
    value = getattr(deal, name)
    if value is None or value == "":
        return "-"
    if name == "declarer_seat":
        return names[value - 1] if 0 < value <= len(names) else _("seat %(seat)s") % {"seat": value}
    if name in ("contract", "tops_kind"):
        return str(getattr(deal, f"get_{name}_display")())
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if name == "score":
        return f"{value:+d}"
    return str(value)


#: What a field-by-field comparison looks at: what was entered, then the score it made.
COMPARED = ("passed_out", *(f for f in ScoresheetLine.ENTERED_FIELDS if f != "passed_out"), "score")


def field_differences(
    first: ScoresheetLine, second: ScoresheetLine, names: Sequence[str]
) -> list[tuple[str, str, str]]:
    """(field, first's value, second's value) for each entered field that differs, and the
    score: "declarer's card points: 92 / 88" says what to check at the table, where two
    whole lines side by side leave the reader to find it."""
    return [
        (
            str(ScoresheetLine._meta.get_field(name).verbose_name),
            _shown(first, name, names),
            _shown(second, name, names),
        )
        for name in COMPARED
        if getattr(first, name) != getattr(second, name)
    ]


def differences_text(first: ScoresheetLine, second: ScoresheetLine, names: Sequence[str]) -> str:
    """The differing fields in one line: "declarer's card points 92 / 88 · score +72 / +48"."""
    return " · ".join(f"{field} {a} / {b}" for field, a, b in field_differences(first, second, names))


@dataclass(frozen=True, slots=True)
class Difference:
    number: int
    sheet: ScoresheetLine
    control: ScoresheetLine


@dataclass(frozen=True, slots=True)
class Comparison:
    """How the second list stands against the sheet."""

    sheet_entered: int
    control_entered: int
    differences: tuple[Difference, ...]
    #: The sheet's deals the second list does not hold (only where one is kept).
    missing: tuple[int, ...] = ()

    @property
    def missing_text(self) -> str:
        """The missing deals as ranges: "7-48" or "3, 9-12"."""
        return number_ranges(self.missing)

    @property
    def kept(self) -> bool:
        """A second list is kept at this table (it has an entry)."""
        return self.control_entered > 0

    @property
    def numbers(self) -> list[int]:
        return [d.number for d in self.differences]


def compare(games: Sequence[ScoresheetLine], entries: Sequence[ScoresheetLine]) -> Comparison:
    """The deals both lists hold whose lines differ, in deal order."""
    sheet = {game.number: game for game in games}
    differences = tuple(
        Difference(entry.number, sheet[entry.number], entry)
        for entry in sorted(entries, key=lambda e: e.number)
        if entry.number in sheet and not decided(sheet[entry.number]) and line(sheet[entry.number]) != line(entry)
    )
    held = {entry.number for entry in entries}
    missing = tuple(sorted(set(sheet) - held)) if held else ()
    return Comparison(len(games), len(entries), differences, missing)


def number_ranges(numbers: Iterable[int]) -> str:
    """Deal numbers as runs: (3, 7, 8, 9, 12) -> "3, 7-9, 12"."""
    runs: list[list[int]] = []
    for number in sorted(numbers):
        if runs and number == runs[-1][1] + 1:
            runs[-1][1] = number
        else:
            runs.append([number, number])
    return ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in runs)


def differing_deals(tables: Iterable | object) -> dict[int, list[int]]:
    """{table id: the deal numbers whose lines differ} for the tables given (a queryset
    or ids), in one query: each second-list entry is paired with the sheet's game of its
    deal by the database, so a 750-table series page reads only the differences; the
    deals a second device sent with other values (ConflictingEntry) count as well. A
    confirmed sheet has none: the players confirm only once the lists agree or a referee
    decided that the sheet stands (signoff.confirm), and then it is final (5.5.3)."""
    sheet = Game.objects.filter(table=OuterRef("table"), number=OuterRef("number"), voided=False).exclude(
        hooks.corrected()
    )
    same = sheet.filter(
        passed_out=OuterRef("passed_out"),
        contract=OuterRef("contract"),
        value=OuterRef("value"),
        won=OuterRef("won"),
        score=OuterRef("score"),
    ).filter(Q(declarer_seat=OuterRef("declarer_seat")) | Q(declarer_seat__isnull=True, passed_out=True))
    rows = (
        ControlEntry.objects.filter(table__in=tables)
        .exclude(hooks.sheet_signed("table"))
        .filter(Exists(sheet))
        .exclude(Exists(same))
        .order_by()
        .values_list("table_id", "number")
    )
    # A second device on the sheet's own link sent another line for a deal already entered
    # (ConflictingEntry): it differs until the sheet's deal is corrected or a referee decides.
    # Other values on the same line (61 or 62 card points of the same won game) are none:
    # kept before that rule, such an entry is not counted either.
    unsettled = sheet.filter(version=OuterRef("sheet_version"))
    conflicts = (
        ConflictingEntry.objects.filter(table__in=tables)
        .exclude(hooks.sheet_signed("table"))
        .filter(Exists(unsettled))
        .exclude(Exists(same.filter(version=OuterRef("sheet_version"))))
        .order_by()
        .values_list("table_id", "number")
    )
    found: dict[int, list[int]] = {}
    for table_id, number in sorted(rows.union(conflicts)):
        found.setdefault(table_id, []).append(number)
    return found


def tables_with_deals(table_ids) -> set[int]:
    """The ids of those tables where a deal is entered on either list, the sheet or the
    second list (the draw asks before it changes seats): two queries."""
    ids = list(table_ids)
    found = set(Game.objects.filter(table_id__in=ids).order_by().values_list("table_id", flat=True).distinct())
    found |= set(
        ControlEntry.objects.filter(table_id__in=ids).order_by().values_list("table_id", flat=True).distinct()
    )
    return found
