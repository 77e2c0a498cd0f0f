"""The scorekeeper's table link: the sheet of one table and the form for the next deal.

The link's token is the only key: it opens its own table and nothing else. A table has
two links: the sheet's (``Table.token``, the list that counts) and the second list's
(``Table.control_token``, kept by another player and only compared, scoring.lists);
both open the same pages, each for its own list. Views stay thin; the engine values
games (forms.py) and entry.py saves them exactly once.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from functools import cache

import segno
from django.contrib import messages
from django.contrib.staticfiles import finders
from django.db.models import Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from core.addresses import absolute_link
from core.params import number_param
from core.rule_messages import rule_message
from scoring import entry, lists, tablesheet
from scoring.describe import legend
from scoring.forms import ControlEntryForm, GameForm, phone_checks
from scoring.models import ConflictingEntry, ControlEntry, Game, ScoresheetLine
from scoring.models.deals import TABLE_LINK, UNSHOWN_FIELDS
from scoring.preview import preview_response
from signoff import confirm as signoff
from signoff.confirm import is_signed
from signoff.context import table_link_context
from skat.rules import RuleError
from skat.sheet import active_seats, dealer_seat
from tournaments.models import Seat, Table

from . import hall_views, links


@dataclass(frozen=True, slots=True)
class Link:
    """What a token opens: its table, the players by seat, and which list."""

    token: str
    table: Table
    players: dict[int, str]
    #: The second list's link (Table.control_token), not the sheet's.
    control: bool

    @property
    def model(self) -> type[ScoresheetLine]:
        return ControlEntry if self.control else Game

    @property
    def form_class(self) -> type[GameForm]:
        return ControlEntryForm if self.control else GameForm

    def deals(self):
        """This list's entries, in deal order; the sheet's marked where a referee changed them."""
        if self.control:
            return ControlEntry.objects.filter(table=self.table).defer(*UNSHOWN_FIELDS).order_by("number")
        return Game.objects.filter(table=self.table).for_sheet().with_correction_reason().order_by("number")


def _open_link(token: str) -> Link:
    """The link's table and its players by seat, in one query: every request of a phone
    at the table starts here, and on a server database each round trip counts."""
    either = Q(table__token=token) | Q(table__control_token=token)
    seats = list(Seat.objects.filter(either).order_by("number").select_related("player", "table__series__tournament"))
    if seats:
        table = seats[0].table
    else:  # a table without seats still opens (and a wrong token is a 404)
        table = get_object_or_404(
            Table.objects.select_related("series__tournament"), Q(token=token) | Q(control_token=token)
        )
    return Link(token, table, {seat.number: seat.player.name for seat in seats}, control=table.token != token)


def _context(request: HttpRequest, link: Link, form: GameForm | None, known: object = signoff.UNREAD) -> dict:
    """What the table link's page shows. ``known``: the table's SignOff (or None) when
    the request read it already (not read again: every deal entered renders this)."""
    table, players = link.table, link.players
    games = list(link.deals())
    sheet = tablesheet.build(table.size, table.deals, games)
    names = [players.get(n, "?") for n in range(1, table.size + 1)]
    last = games[-1] if games else None
    number = form["number"].value() if form is not None else None
    try:
        dealer = players.get(dealer_seat(int(number), table.size)) if number else None
    except (TypeError, ValueError):
        dealer = None
    # The other list, to compare (one query): the second list's entries on the sheet's
    # page, the sheet's games (with the referees' marks) on the second list's. Unordered:
    # compare() pairs them by number, and the default ordering (table, then its series
    # and tournament) joined three tables and sorted on every deal entered.
    if link.control:
        comparison = lists.compare(
            Game.objects.filter(table=table).for_sheet().with_correction_reason().order_by(), games
        )
        # Whether the sheet is confirmed (then this list is closed too); no PIN form here.
        own = {"signoff": signoff.state(table, entered=comparison.sheet_entered, signoff=known)}
    else:
        comparison = lists.compare(games, ControlEntry.objects.filter(table=table).defer(*UNSHOWN_FIELDS).order_by())
        own = table_link_context(table, players, entered=len(games), known=known)
    return own | {
        "link": link.token,
        "control": link.control,
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
        "other_device": [] if link.control else _other_device(table, games, names, own["signoff"]),
        "dealer": dealer,
        "table": table,
        "series": table.series,
        "tournament": table.series.tournament,
        "players": names,
        "sheet": sheet,
        "sheet_rows": tablesheet.rows_html(sheet, names),
        "sheet_legend": legend,  # the abbreviations of a 390 px sheet (a callable, called there)
        "form": form,
        "last": last,
        "is_director": table.series.tournament.is_director(request.user),
        "closed": links.is_closed(table),
        # The connection check, before the table's first deal only (dashboard.hall).
        "hall_check": hall_views.sheet_context(table, comparison.sheet_entered, links.is_closed(table)),
        # Rendered only with the whole page (table_sheet.html): a callable, called there.
        "entry_checks": phone_checks,
    }


def _other_device(
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
        if game is None or game.version != sent.sheet_version or lists.decided(game):
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


def _new_form(link: Link, number: int) -> GameForm:
    return link.form_class(
        table=link.table,
        players=_active(link.players, link.table, number),
        initial={"number": number, "client_id": uuid.uuid4(), "tops_kind": Game.TopsKind.WITH},
    )


def _active(players: dict[int, str], table: Table, number: int) -> dict[int, str]:
    return {seat: name for seat, name in players.items() if seat in active_seats(number, table.size)}


@require_http_methods(["GET", "POST"])
def table_sheet(request: HttpRequest, token: str) -> HttpResponse:
    """GET: the sheet with the form for the next deal. POST: enter that deal."""
    link = _open_link(token)
    table, players = link.table, link.players
    if request.method == "POST" and links.is_closed(table):
        return links.closed_response(request, table, token)
    form = None
    if request.method == "POST":
        # The posted deal picks the seats in play; a missing or garbled one is refused by
        # the form (its number field), so no next-deal query is spent before validation.
        posted = _posted_number(request, 1)
        form = link.form_class(request.POST, table=table, players=_active(players, table, posted))
        if form.is_valid():
            try:
                saved = entry.add_game(form, entered_by=_who(request))
            except entry.DealTaken as error:
                stored = entry.taken_by(form, entered_by=_who(request))
                return _taken(request, link, error.params["deal"], sent=form.instance, stored=stored)
            except RuleError as error:
                form.add_error(None, rule_message(error))
            else:
                # A resend of a game already saved (saved.created False) shows the sheet as it is.
                if request.htmx:
                    # A new game is the table's last (add_game keeps deal order); after a
                    # resend, another device may have entered more meanwhile.
                    number = saved.game.number + 1 if saved.created else entry.next_deal(table, link.model)
                    form = _new_form(link, number) if number <= table.deals else None
                    # A deal saved now was saved on a sheet not confirmed (checked under the lock).
                    known = None if saved.created else signoff.UNREAD
                    context = _context(request, link, form, known) | {"entered": saved.game}
                    return render(request, "tablelink/_sheet_and_form.html", context)
                messages.success(request, _entered_text(saved.game))
                return redirect("table:sheet", token=token)
        status = 422 if form.errors else 200
        template = "tablelink/_sheet_and_form.html" if request.htmx else "tablelink/table_sheet.html"
        return render(request, template, _context(request, link, form), status=status)
    # 5.5.3: a finished series or a confirmed sheet shows no form.
    number = entry.next_deal(table, link.model)
    known = signoff.signoff_of(table)
    if number <= table.deals and not links.is_closed(table) and known is None:
        form = _new_form(link, number)
    return render(request, "tablelink/table_sheet.html", _context(request, link, form, known))


def _taken(
    request: HttpRequest, link: Link, number: int, *, sent: ScoresheetLine, stored: ScoresheetLine | None
) -> HttpResponse:
    """409: the posted deal was entered on another device (a second phone at the table,
    or a form older than the sheet): say so, with each field where the stored entry and
    this device's differ (entry.taken_by keeps those as a difference to settle), and give
    the form for the deal now due."""
    following = entry.next_deal(link.table, link.model)
    form = _new_form(link, following) if following <= link.table.deals else None
    names = [link.players.get(n, "?") for n in range(1, link.table.size + 1)]
    differences = lists.field_differences(stored, sent, names) if stored is not None else []
    template = "tablelink/_sheet_and_form.html" if request.htmx else "tablelink/table_sheet.html"
    context = _context(request, link, form) | {"taken": number, "taken_differences": differences}
    return render(request, template, context, status=409)


def _entered_text(game: ScoresheetLine) -> str:
    if game.passed_out:
        return _("Deal %(number)s entered: passed out.") % {"number": game.number}
    return _("Deal %(number)s entered: %(score)s.") % {"number": game.number, "score": f"{game.score:+d}"}


def _corrected_text(game: ScoresheetLine, confirmed: frozenset[int]) -> str:
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
    """Who enters: the user logged in, else the table link's code (stored in no language,
    shown translated: ScoresheetLine.entered_by_label)."""
    if request.user.is_authenticated:
        return request.user.get_username()
    return TABLE_LINK


@require_POST
def preview(request: HttpRequest, token: str) -> HttpResponse:
    """The value and score of the deal being entered, as the fields are filled (htmx)."""
    link = _open_link(token)
    table, players = link.table, link.players
    if links.is_closed(table):
        return links.closed_response(request, table, token)
    if is_signed(table):
        return HttpResponse(_("5.5.3: the players confirmed this sheet; only a referee can change it now."))
    form = link.form_class(request.POST, table=table, players=_active(players, table, _posted_number(request, 1)))
    return preview_response(request, form)


@require_http_methods(["GET", "POST"])
def correct_last(request: HttpRequest, token: str) -> HttpResponse:
    """Correct the list's last deal (5.5.3), with a version check against a second phone.

    The second list counts nothing, so its keeper may correct any of its deals
    (``?deal=<n>``, or the posted deal number): once the table agrees the sheet is right,
    he brings his list in line with it.
    """
    link = _open_link(token)
    table, players = link.table, link.players
    if links.is_closed(table):
        return links.closed_response(request, table, token)
    entries = link.model.objects.filter(table=table)
    last = None
    # A post names the deal it corrects: that deal, not whatever is last now (a new
    # entry may have come in since the form was shown; entry.correct_last_game checks
    # again under the table's lock).
    if request.method == "POST" or link.control:
        wanted = number_param(request.POST.get("number") if request.method == "POST" else request.GET.get("deal"))
        last = entries.filter(number=wanted).first() if wanted else None
    last = last or entries.order_by("-number").first()
    if last is None:
        return redirect("table:sheet", token=token)
    if is_signed(table):
        messages.error(request, _("5.5.3: the players confirmed this sheet; only a referee can change it now."))
        return redirect("table:sheet", token=token)
    if request.method == "POST":
        # Confirmations are of the sheet as it was (its fingerprint): a change voids them.
        # The second list is no part of what the players confirm.
        confirmed = frozenset() if link.control else signoff.state(table).confirmed_seats
        form = link.form_class(request.POST, instance=last, table=table, players=_active(players, table, last.number))
        if form.is_valid():
            try:
                game = entry.correct_last_game(form, entered_by=_who(request))
            except RuleError as error:
                form.add_error(None, rule_message(error))
            else:
                messages.success(request, _corrected_text(game, confirmed))
                return redirect("table:sheet", token=token)
        status = 422
    else:
        form = link.form_class(
            instance=last,
            table=table,
            players=_active(players, table, last.number),
            initial={"number": last.number, "version": last.version},
        )
        status = 200
    context = _context(request, link, form) | {"correcting": last}
    return render(request, "tablelink/table_sheet.html", context, status=status)


def table_qr(request: HttpRequest, token: str) -> HttpResponse:
    """The table link (or its second list's) as a QR code (SVG) on the hall address."""
    link = _open_link(token)
    url = absolute_link(request, reverse("table:sheet", args=[link.token]))
    svg = segno.make(url, error="m").svg_inline(scale=6, border=2)
    return HttpResponse(svg, content_type="image/svg+xml")


@require_GET
def table_worker(request: HttpRequest) -> HttpResponse:
    """The table links' service worker (static/js/table-worker.js): it keeps a link page
    and its assets on the phone, so a reload without network still opens the sheet.

    Served from /s/ rather than /static/: a worker controls only pages under its own
    path, and each page registers it for its own link (scope /s/<token>/).
    """
    response = HttpResponse(_worker_source(), content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = reverse("table:worker").rsplit("/", 1)[0] + "/"
    response["Cache-Control"] = "no-cache"  # a new version of the app reaches the phones
    return response


@cache
def _worker_source() -> bytes:
    path = finders.find("js/table-worker.js")
    with open(path, "rb") as source:
        return source.read()
