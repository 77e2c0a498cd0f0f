"""The scorekeeper's table link: the sheet of one table and the form for the next deal.

The link's token is the only key: it opens its own table and nothing else. Views stay
thin; the engine values games (forms.py) and entry.py saves them exactly once.
"""

from __future__ import annotations

import uuid

import segno
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from referees import signoff
from referees.context import table_link_context
from referees.signoff import is_signed
from tournaments.models import Seat, Table

from . import entry, links, tablesheet
from .forms import GameForm
from .messages import rule_message
from .models import Game
from .rules import RuleError
from .sheet import active_seats, dealer_seat


def _table(token: str) -> Table:
    return get_object_or_404(Table.objects.select_related("series__tournament"), token=token)


def _table_and_players(token: str) -> tuple[Table, dict[int, str]]:
    """The link's table and its players by seat, in one query: every request of a phone
    at the table starts here, and on a server database each round trip counts."""
    query = Seat.objects.filter(table__token=token).order_by("number")
    seats = list(query.select_related("player", "table__series__tournament"))
    if not seats:  # a table without seats still opens (and a wrong token is a 404)
        return _table(token), {}
    return seats[0].table, {seat.number: seat.player.name for seat in seats}


def _context(request: HttpRequest, table: Table, form: GameForm | None, players: dict[int, str]) -> dict:
    # A referee's corrections are marked on the sheet (its reason as the mark's title).
    games = list(Game.objects.filter(table=table).with_correction_reason().order_by("number"))
    sheet = tablesheet.build(table.size, table.deals, games)
    names = [players.get(n, "?") for n in range(1, table.size + 1)]
    last = games[-1] if games else None
    number = form["number"].value() if form is not None else None
    try:
        dealer = players.get(dealer_seat(int(number), table.size)) if number else None
    except (TypeError, ValueError):
        dealer = None
    return table_link_context(table, players, entered=len(games)) | {
        "dealer": dealer,
        "table": table,
        "series": table.series,
        "tournament": table.series.tournament,
        "players": names,
        "sheet": sheet,
        "sheet_rows": tablesheet.rows_html(sheet, names),
        "form": form,
        "last": last,
        "is_director": table.series.tournament.is_director(request.user),
        "closed": links.is_closed(table),
    }


def _new_form(table: Table, players: dict[int, str], number: int) -> GameForm:
    return GameForm(
        table=table,
        players=_active(players, table, number),
        initial={"number": number, "client_id": uuid.uuid4(), "tops_kind": Game.TopsKind.WITH},
    )


def _active(players: dict[int, str], table: Table, number: int) -> dict[int, str]:
    return {seat: name for seat, name in players.items() if seat in active_seats(number, table.size)}


@require_http_methods(["GET", "POST"])
def table_sheet(request: HttpRequest, token: str) -> HttpResponse:
    """GET: the sheet with the form for the next deal. POST: enter that deal."""
    table, players = _table_and_players(token)
    if request.method == "POST" and links.is_closed(table):
        return links.closed_response(request, table)
    form = None
    if request.method == "POST":
        # The posted deal picks the seats in play; a missing or garbled one is refused by
        # the form (its number field), so no next-deal query is spent before validation.
        posted = _posted_number(request, 1)
        form = GameForm(request.POST, table=table, players=_active(players, table, posted))
        if form.is_valid():
            try:
                saved = entry.add_game(form, entered_by=_who(request))
            except RuleError as error:
                form.add_error(None, rule_message(error))
            else:
                # A resend of a game already saved (saved.created False) shows the sheet as it is.
                if request.htmx:
                    # A new game is the table's last (add_game keeps deal order); after a
                    # resend, another device may have entered more meanwhile.
                    number = saved.game.number + 1 if saved.created else entry.next_deal(table)
                    form = _new_form(table, players, number) if number <= table.deals else None
                    context = _context(request, table, form, players) | {"entered": saved.game}
                    return render(request, "scoring/_sheet_and_form.html", context)
                messages.success(request, _entered_text(saved.game))
                return redirect("tables:sheet", token=token)
        status = 422 if form.errors else 200
        template = "scoring/_sheet_and_form.html" if request.htmx else "scoring/table_sheet.html"
        return render(request, template, _context(request, table, form, players), status=status)
    # 5.5.3: a finished series or a confirmed sheet shows no form.
    number = entry.next_deal(table)
    if number <= table.deals and not links.is_closed(table) and not is_signed(table):
        form = _new_form(table, players, number)
    return render(request, "scoring/table_sheet.html", _context(request, table, form, players))


def _entered_text(game: Game) -> str:
    if game.passed_out:
        return _("Deal %(number)s entered: passed out.") % {"number": game.number}
    return _("Deal %(number)s entered: %(score)s.") % {"number": game.number, "score": f"{game.score:+d}"}


def _corrected_text(game: Game, confirmed: frozenset[int]) -> str:
    text = (
        _("Deal %(number)s corrected: passed out.") % {"number": game.number}
        if game.passed_out
        else _("Deal %(number)s corrected: %(score)s.") % {"number": game.number, "score": f"{game.score:+d}"}
    )
    if confirmed:
        text += " " + _("The sheet has changed: every player confirms it again (5.5.3).")
    return text


def _posted_number(request: HttpRequest, default: int) -> int:
    try:
        return int(request.POST.get("number", default))
    except (TypeError, ValueError):
        return default


def _who(request: HttpRequest) -> str:
    if request.user.is_authenticated:
        return request.user.get_username()
    return _("table link")


@require_POST
def preview(request: HttpRequest, token: str) -> HttpResponse:
    """The value and score of the deal being entered, as the fields are filled (htmx)."""
    table, players = _table_and_players(token)
    if links.is_closed(table):
        return links.closed_response(request, table)
    if is_signed(table):
        return HttpResponse(_("5.5.3: the players confirmed this sheet; only a referee can change it now."))
    form = GameForm(request.POST, table=table, players=_active(players, table, _posted_number(request, 1)))
    form.is_valid()
    return render(request, "scoring/_preview.html", {"form": form, "outcome": form.outcome})


@require_http_methods(["GET", "POST"])
def correct_last(request: HttpRequest, token: str) -> HttpResponse:
    """Correct the table's last deal (5.5.3), with a version check against a second phone."""
    table, players = _table_and_players(token)
    if links.is_closed(table):
        return links.closed_response(request, table)
    last = Game.objects.filter(table=table).order_by("-number").first()
    if last is None:
        return redirect("tables:sheet", token=token)
    if is_signed(table):
        messages.error(request, _("5.5.3: the players confirmed this sheet; only a referee can change it now."))
        return redirect("tables:sheet", token=token)
    if request.method == "POST":
        # Confirmations are of the sheet as it was (its fingerprint): a change voids them.
        confirmed = signoff.state(table).confirmed_seats
        form = GameForm(request.POST, instance=last, table=table, players=_active(players, table, last.number))
        if form.is_valid():
            try:
                game = entry.correct_last_game(form, entered_by=_who(request))
            except RuleError as error:
                form.add_error(None, rule_message(error))
            else:
                messages.success(request, _corrected_text(game, confirmed))
                return redirect("tables:sheet", token=token)
        status = 422
    else:
        form = GameForm(
            instance=last,
            table=table,
            players=_active(players, table, last.number),
            initial={"number": last.number, "version": last.version},
        )
        status = 200
    context = _context(request, table, form, players) | {"correcting": last}
    return render(request, "scoring/table_sheet.html", context, status=status)


def table_qr(request: HttpRequest, token: str) -> HttpResponse:
    """The table link as a QR code (SVG), for the table card."""
    table = _table(token)
    url = request.build_absolute_uri(table.entry_url())
    svg = segno.make(url, error="m").svg_inline(scale=6, border=2)
    return HttpResponse(svg, content_type="image/svg+xml")
