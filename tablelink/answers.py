"""The table link's answer to a deal appended to its list: only what changed on the page.

A phone enters a deal every minute or two, and until now each answer was the whole
re-rendered sheet and the next form (every game loaded and described again, the lists
compared, the sign-off read). A plain append changes only a few parts of the page: the
progress line, the "entered" note, the next form, the new row, the sheet's foot (running
ratings), the "correct deal n" button and, where a second list is kept or another
device's values wait to be settled, the lists' comparison. :func:`entered` answers with
those parts alone, each marked as htmx's out-of-band swaps are (``hx-swap-oob``:
``outerHTML:<selector>``, ``beforeend:<selector>``, ``beforebegin:<selector>``, ``true``
for the element's id), and static/js/entry.js puts them in place; the page then shows
what a fresh GET shows (tests/tablelink/test_entered_answer.py compares them).

Everything else still answers with the whole sheet (tablelink.views.table_sheet):
the table's first deal (the connection check and the empty sheet leave), its last (the
series' sheet is complete: no next form, the sign-off becomes due), a resend of a deal
already saved, a deal refused (422) or entered on another device (409), a correction,
and a page without htmx. So does a list where another device entered more deals
between this deal's save and its answer, and a page older than the list in any other
way: the form carries the list's version the page shows (``sheet_version``,
scoring.sheet_versions), and the answer is lean only when it is the version the
list had just before this deal's save, read under the table's lock. A referee's
correction or void, a sign-off, a deal corrected on another device meanwhile (or a
form without the version, or with another: an older phone, a deal queued offline) get
the whole sheet; the deal itself is saved as ever, the version decides only the answer.
(New seats give the table new links, draw.seating: a deal from the old page is refused.
A player's name changed meanwhile is not counted: the page keeps the old one until reloaded.)
"""

from __future__ import annotations

from django.db.models import BooleanField, Exists, OuterRef, Value
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from scoring import entry, lists, tablesheet
from scoring.compiled import Compiled
from scoring.models import ConflictingEntry, ControlEntry, Game, ScoresheetLine
from scoring.models.deals import UNSHOWN_FIELDS
from signoff import confirm as signoff
from tournaments.models import Table

from . import next_form
from .links import Link


def _lines(model: type[ScoresheetLine]):
    """tablesheet.LINE_FIELDS of every deal of a table's list, in deal order."""
    # The second list has no referee's void: none of its entries is voided.
    fields = [
        name if name != "voided" or model is Game else Value(False, output_field=BooleanField())
        for name in tablesheet.LINE_FIELDS
    ]
    return lambda pk: model.objects.filter(table_id=pk).order_by("number").values_list(*fields)


def _kept(pk: int):
    """Whether a second list is kept at the table, and whether another device's values are kept."""
    return (
        Table.objects.filter(pk=pk)
        .order_by()
        .values_list(
            Exists(ControlEntry.objects.filter(table=OuterRef("pk"))),
            Exists(ConflictingEntry.objects.filter(table=OuterRef("pk"))),
        )
    )


def _prepare_pk(pk: int, *, connection) -> list[int]:
    return [int(pk)]


#: Asked on every deal appended: compiled once (scoring.compiled).
_LINES = {
    model: Compiled(_lines(model), (-7,), _prepare_pk, convert=lambda r: (r[0], r[1], r[2], bool(r[3]), bool(r[4])))
    for model in (Game, ControlEntry)
}
_KEPT = Compiled(_kept, (-7,), _prepare_pk, convert=lambda r: (bool(r[0]), bool(r[1])))


def entered(
    request: HttpRequest, link: Link, saved: entry.Saved, number: int, shown: str | None
) -> HttpResponse | None:
    """The lean answer to ``saved``, just appended to the link's list, with the form for
    deal ``number`` (tablelink.next_form: no form object built); None where the whole
    sheet must answer (see the module). ``shown``: the list's version the posting page
    showed (its form's ``sheet_version``), None when not sent."""
    table, game = link.table, saved.game
    if not saved.created or shown is None or shown != saved.version_before:
        return None  # the page is older than the list (or says nothing): the whole sheet
    if number > table.deals or game.number < 2 or game.number >= table.deals:
        return None
    lines = _LINES[link.model].rows(table.pk)
    if not lines or lines[-1][0] != game.number or len(lines) != game.number:
        return None  # another device entered more meanwhile: the whole sheet says so
    sheet = tablesheet.after(table.size, table.deals, game, lines)
    names = [link.players.get(n, "?") for n in range(1, table.size + 1)]
    context = {
        "link": link.token,
        "control": link.control,
        "table": table,
        "series": table.series,
        "sheet": sheet,
        "sheet_rows": tablesheet.rows_html(sheet, names),
        "entered": game,
        "last": game,
        "next_form": next_form.render(request, link, number, saved.version_after),
    }
    if _lists_shown(link):
        # Not confirmed, not complete: add_game checked it under the table's lock.
        state = signoff.state(table, entered=len(lines), signoff=None)
        context |= {"lists_block": True, "closed": False, "signoff": state}
        context |= lists_context(link, None, names, state)
    return render(request, "tablelink/_entered.html", context)


def _lists_shown(link: Link) -> bool:
    """Whether the page shows the lists' comparison: the second list's page always (the
    sheet is its measure), the sheet's where a second list is kept or another device's
    values were kept (one query)."""
    if link.control:
        return True
    [(kept, sent)] = _KEPT.rows(link.table.pk)
    return bool(kept or sent)


def lists_context(link: Link, games: list | None, names: list[str], state: signoff.SignOffState | None) -> dict:
    """The lists' comparison as the page shows it (templates/tablelink/_lists.html): the
    second list against the sheet, and the deals another device sent with other values.
    ``games``: this link's list when read already; ``state``: the sheet's sign-off (the
    sheet's page only: the second list's shows no other device's values)."""
    table = link.table
    if games is None:
        games = list(link.deals())
    sheet_games = Game.objects.filter(table=table).for_sheet().with_correction_reason().order_by()
    entries = ControlEntry.objects.filter(table=table).defer(*UNSHOWN_FIELDS).order_by()
    # Unordered: compare() pairs them by number.
    comparison = lists.compare(sheet_games, games) if link.control else lists.compare(games, entries)
    return {
        "lists": comparison,
        "list_differences": [
            (
                d.number,
                lists.describe(d.sheet, names),
                lists.describe(d.control, names),
                lists.differences_text(d.sheet, d.control, names),
            )
            for d in comparison.differences
        ],
        "other_device": [] if link.control or state is None else other_device(table, games, names, state),
    }


def other_device(
    table: Table, games: list[ScoresheetLine], names: list[str], state: signoff.SignOffState
) -> list[tuple]:
    """The deals another device sent with other values, not settled yet (scoring.entry.taken_by):
    (number, the sheet's line, the other device's, what differs). One query. Settled too
    where a referee decided that the sheet stands (awaiting: not in ``state.lists_differ``)
    and once the players confirmed the sheet."""
    if state.confirmed:
        return []
    sheet = {game.number: game for game in games}
    rows = []
    for sent in ConflictingEntry.objects.filter(table=table).order_by("number", "pk"):
        game = sheet.get(sent.number)
        if (
            game is None
            or game.version != sent.sheet_version
            or lists.decided(game)
            or lists.line(game) == lists.line(sent)
        ):
            continue
        if state.awaiting and sent.number not in state.lists_differ:
            continue
        rows.append(
            (
                sent.number,
                lists.describe(game, names),
                lists.describe(sent, names),
                lists.differences_text(game, sent, names),
            )
        )
    return rows
