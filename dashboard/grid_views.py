"""The office grid's pages: type a table's paper list at the desk (director or referee).

Thin: :mod:`scoring.grid` reads and values the rows (the phone form, so the rules
engine) and saves them through the phone's own path in one transaction;
:mod:`skat.paperline` reads a typed line. ``?list=second`` types the second list.
"""

from __future__ import annotations

import uuid

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from core.params import number_param
from scoring import grid, tablesheet
from scoring.describe import game_text
from signoff.confirm import is_signed
from skat.paperline import LETTERS_OF
from tournaments.lookups import names_by_seat
from tournaments.models import Series, Table, Tournament
from tournaments.permissions import paper_list_typist_required


def _table(tournament: Tournament, number: int, table: int) -> Table:
    return get_object_or_404(
        Table.objects.select_related("series__tournament"),
        series__tournament=tournament,
        series__number=number,
        number=table,
    )


def _kind(request: HttpRequest) -> str:
    wanted = request.POST.get("list") if request.method == "POST" else request.GET.get("list")
    return wanted if wanted in grid.LISTS else "sheet"


def _closed(table: Table) -> str:
    """Why the grid takes no deal at this table, or ""."""
    if table.series.status == Series.Status.FINISHED:
        return _("Series %(n)s is finished; a referee corrects it now (5.5.3).") % {"n": table.series.number}
    if is_signed(table):
        return _("5.5.3: the players confirmed this sheet; only a referee can change it now.")
    return ""


@require_http_methods(["GET", "POST"])
@paper_list_typist_required
def grid_page(request: HttpRequest, tournament: Tournament, number: int, table: int) -> HttpResponse:
    """GET: the grid from the list's next deal. POST: save every typed row, or none."""
    target = _table(tournament, number, table)
    kind = _kind(request)
    model, form_class = grid.LISTS[kind]
    players = names_by_seat(target)
    closed = _closed(target)
    refused = ""
    status = 200
    start = grid.first_row(target, model)
    if request.method == "POST" and not closed:
        posted_start = number_param(request.POST.get("start"))
        start = posted_start if posted_start and posted_start <= target.deals else start
        rows = grid.read_rows(target, players, form_class, start, request.POST)
        if not rows:
            refused = _("Nothing typed: type the deals first, one line each.")
        else:
            try:
                who = _("%(user)s: office grid") % {"user": request.user.get_username()}
                saved = grid.save_rows(rows, entered_by=who)
            except grid.GridRefused as error:
                refused = _("Nothing saved. %(problem)s") % {"problem": error.row.problem}
            else:
                messages.success(request, _saved_text(target, saved))
                return redirect(_grid_url(tournament, target, kind))
        status = 422
    else:
        rows = [grid.GridRow(n, "", str(uuid.uuid4())) for n in range(start, target.deals + 1)]
    names = [players.get(n, "?") for n in range(1, target.size + 1)]
    entered = list(model.objects.filter(table=target).order_by("number"))
    sheet = tablesheet.build(target.size, target.deals, entered)
    context = {
        "tournament": tournament,
        "series": target.series,
        "table": target,
        "kind": kind,
        "rows": [_row_context(row, target, names) for row in rows],
        "start": start,
        "players": names,
        "sheet": sheet,
        "sheet_rows": tablesheet.rows_html(sheet, names),
        "closed": closed,
        "refused": refused,
        "letters": LETTERS_OF.get((get_language() or "en")[:2], LETTERS_OF["en"]),
        "preview_url": reverse("director:grid_preview", args=[tournament.pk, target.series.number, target.number]),
    }
    return render(request, "dashboard/grid.html", context, status=status)


def _grid_url(tournament: Tournament, table: Table, kind: str) -> str:
    url = reverse("director:grid", args=[tournament.pk, table.series.number, table.number])
    return f"{url}?list=second" if kind == "second" else url


def _saved_text(table: Table, saved: grid.GridSaved) -> str:
    text = ngettext(
        "Table %(table)s: %(n)s deal saved, valued by the rules.",
        "Table %(table)s: %(n)s deals saved, every one valued by the rules.",
        saved.created,
    ) % {"table": table.number, "n": saved.created}
    if saved.resent:
        text += " " + ngettext(
            "%(n)s deal was saved already (the same list sent again).",
            "%(n)s deals were saved already (the same list sent again).",
            saved.resent,
        ) % {"n": saved.resent}
    return text


def _row_context(row: grid.GridRow, table: Table, names: list[str]) -> dict:
    dealer = grid.dealer_of(row.number, table)
    return {
        "row": row,
        "dealer": names[dealer - 1] if 0 < dealer <= len(names) else "",
        "sits_out": table.size == 4,
    } | _outputs(row, names)


def _outputs(row: grid.GridRow, names: list[str]) -> dict:
    """What the row's output cells show: the declarer, the game, its value and score."""
    game = row.game
    if game is None:
        return {"declarer": "", "game": "", "outcome": None, "passed": False}
    seat = game.declarer_seat
    return {
        "declarer": names[seat - 1] if seat and 0 < seat <= len(names) else "",
        "game": game_text(game),
        "outcome": row.outcome,
        "passed": game.passed_out,
        "score": game.score,
        "seat": seat or "",
    }


@require_POST
@paper_list_typist_required
def grid_preview(request: HttpRequest, tournament: Tournament, number: int, table: int) -> HttpResponse:
    """One row valued as it is typed (htmx): the row's output cells, or its refusal."""
    target = _table(tournament, number, table)
    _model, form_class = grid.LISTS[_kind(request)]
    deal = number_param(request.POST.get("deal"))
    if deal is None or not 1 <= deal <= target.deals:
        return HttpResponse(_("deal: this table plays %(deals)s deals (3.2.1).") % {"deals": target.deals}, status=400)
    players = names_by_seat(target)
    row = grid.read_row(target, players, form_class, deal, request.POST.get(f"line-{deal}", ""), str(uuid.uuid4()))
    names = [players.get(n, "?") for n in range(1, target.size + 1)]
    context = {"r": {"row": row} | _outputs(row, names)}
    return render(request, "dashboard/_grid_outputs.html", context)
