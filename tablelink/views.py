"""The scorekeeper's table link: the sheet of one table and the form for the next deal.

The link's token is the only key: it opens its own table and nothing else. A table has
two links: the sheet's (``Table.token``, the list that counts) and the second list's
(``Table.control_token``, kept by another player and only compared, scoring.lists);
both open the same pages, each for its own list. Views stay thin; the engine values
games (forms.py) and entry.py saves them exactly once.
"""

from __future__ import annotations

import uuid
from functools import cache

import segno
from django.contrib import messages
from django.contrib.staticfiles import finders
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from core.addresses import absolute_link
from core.params import number_param
from core.rule_messages import rule_message
from scoring import entry, lists, sheet_versions, tablesheet
from scoring.describe import legend
from scoring.forms import GameForm, phone_checks
from scoring.models import Game, ScoresheetLine
from scoring.models.deals import TABLE_LINK
from scoring.preview import preview_response
from signoff import confirm as signoff
from signoff.confirm import is_signed
from signoff.context import table_link_context
from skat.rules import RuleError
from skat.sheet import active_seats, dealer_seat
from tournaments.models import Table

from . import answers, hall_views, links
from .links import Link


def _open_link(token: str) -> Link:
    return links.open_link(token)


def _context(
    request: HttpRequest, link: Link, form: GameForm | None, known: object = signoff.UNREAD, *, new: bool = True
) -> dict:
    """What the table link's page shows. ``known``: the table's SignOff (or None) when
    the request read it already (not read again: every deal entered renders this).
    ``new``: a form for a new deal carries the list's version (a correction's does not)."""
    table, players = link.table, link.players
    # Before the list: a change in between makes the page newer than its version, never older.
    version = sheet_versions.read(table, link.model) if form is not None and new else None
    games = list(link.deals())
    sheet = tablesheet.build(table.size, table.deals, games)
    names = [players.get(n, "?") for n in range(1, table.size + 1)]
    last = games[-1] if games else None
    number = form["number"].value() if form is not None else None
    try:
        dealer = players.get(dealer_seat(int(number), table.size)) if number else None
    except (TypeError, ValueError):
        dealer = None
    # The other list, to compare (one query; tablelink.answers.lists_context). On the
    # second list's page whether the sheet is confirmed follows from the sheet's count.
    if link.control:
        compared = answers.lists_context(link, games, names, None)
        # Whether the sheet is confirmed (then this list is closed too); no PIN form here.
        own = {"signoff": signoff.state(table, entered=compared["lists"].sheet_entered, signoff=known)}
    else:
        own = table_link_context(table, players, entered=len(games), known=known)
        compared = answers.lists_context(link, games, names, own["signoff"])
    comparison = compared["lists"]
    return own | {
        "link": link.token,
        "control": link.control,
        **compared,
        "dealer": dealer,
        "table": table,
        "series": table.series,
        "tournament": table.series.tournament,
        "players": names,
        "sheet": sheet,
        "sheet_rows": tablesheet.rows_html(sheet, names),
        "sheet_legend": legend,  # the abbreviations of a 390 px sheet (a callable, called there)
        "form": form,
        "sheet_version": version,
        "last": last,
        "is_director": table.series.tournament.is_director(request.user),
        "closed": links.is_closed(table),
        # The connection check, before the table's first deal only (dashboard.hall).
        "hall_check": hall_views.sheet_context(table, comparison.sheet_entered, links.is_closed(table)),
        # Rendered only with the whole page (table_sheet.html): a callable, called there.
        "entry_checks": phone_checks,
    }


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
                    # A deal appended: only what changed (tablelink.answers says when not).
                    lean = answers.entered(request, link, saved, number, request.POST.get("sheet_version"))
                    if lean is not None:
                        return lean
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
    # The same line of the sheet is no difference (entry.taken_by keeps none): only "entered on another device".
    # (The second list's keeper is told every field: he corrects his own list.)
    same_line = stored is not None and not link.control and lists.line(stored) == lists.line(sent)
    differences = lists.field_differences(stored, sent, names) if stored is not None and not same_line else []
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
        version = last.version
        form = link.form_class(request.POST, instance=last, table=table, players=_active(players, table, last.number))
        if form.is_valid():
            try:
                game = entry.correct_last_game(form, entered_by=_who(request))
            except RuleError as error:
                form.add_error(None, rule_message(error))
            else:
                if game.version == version:  # the same values again: nothing stored (scoring.entry)
                    messages.success(
                        request,
                        _("Deal %(number)s unchanged: it already holds these values.") % {"number": game.number},
                    )
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
    context = _context(request, link, form, new=False) | {"correcting": last}
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
