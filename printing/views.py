"""The director's printed documents: scoresheets, table cards, PIN slips, settlements,
ranking list, prize list; and the fee account page they share their sums with.

Thin: each view checks its parameters, answers a bad one with a clear 400 page naming
the parameter, and lets :mod:`printing.documents` draw the PDF.
"""

from __future__ import annotations

import io
from functools import partial

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.text import slugify
from django.utils.translation import gettext as _

from core.addresses import absolute_link
from core.filenames import Name, file_name, slug
from core.params import number_param
from money import ledger as accounts
from signoff.pins import seat_pin
from skat.fees import FeeError
from standings.cache import cache_key, cached, cached_standings, conditional, mark_of
from standings.categories import CategoryError, chosen_category
from standings.pages import scope_query
from standings.places import finality
from standings.views import bad_category, scope_for
from tournaments.lookups import published_tournament, series_or_404
from tournaments.models import Table, Tournament
from tournaments.permissions import director_required

from . import documents

FORMS = ("blank", "filled")


def _pdf(filename: str) -> HttpResponse:
    response = HttpResponse(content_type="application/pdf")
    # inline: the browser shows it and prints it; the name is used when it is saved.
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


def _name(tournament: Tournament, *parts: str | int) -> str:
    """The PDF's file name: the tournament's, umlauts spelled out, words in the page's language."""
    return file_name(Name(tournament.name), *parts, suffix=".pdf")


def _bad(request: HttpRequest, tournament: Tournament, message: str) -> HttpResponse:
    return render(request, "core/bad_request.html", {"tournament": tournament, "message": message}, status=400)


def _form(request: HttpRequest) -> str | None:
    """``?form=blank`` (the default) or ``?form=filled``; None for anything else."""
    value = request.GET.get("form", "blank")
    return value if value in FORMS else None


def _form_message() -> str:
    return _("form: choose blank or filled.")


@director_required
def series_sheets(request: HttpRequest, tournament: Tournament, number: int) -> HttpResponse:
    """All scoresheets of a series: blank to print before it, filled after it (5.5.2)."""
    series = series_or_404(tournament, number)
    form = _form(request)
    if form is None:
        return _bad(request, tournament, _form_message())
    response = _pdf(_name(tournament, "series", number, "sheets", form))
    documents.series_sheets_pdf(series, filled=form == "filled", out=response)
    return response


@director_required
def table_sheet(request: HttpRequest, tournament: Tournament, number: int, table: int) -> HttpResponse:
    """One table's scoresheet."""
    series = series_or_404(tournament, number)
    table_obj = get_object_or_404(Table.objects.select_related("series__tournament"), series=series, number=table)
    form = _form(request)
    if form is None:
        return _bad(request, tournament, _form_message())
    response = _pdf(_name(tournament, "series", number, "table", table, "sheet", form))
    response.write(documents.table_sheet_pdf(table_obj, filled=form == "filled"))
    return response


def _tables_param(request: HttpRequest, series) -> list[int] | str | None:
    """``?tables=3,7``: the tables changed after the draw, to print again; None without
    it; the message for a value that names no table of the series."""
    selected = request.GET.get("tables", "")
    if not selected:
        return None
    numbers = set(series.tables.values_list("number", flat=True))
    chosen = []
    for part in selected.split(","):
        # Compared in Python, so a number too large for the database column is just
        # another unknown table.
        value = number_param(part.strip())
        if value not in numbers:
            return _("tables: %(value)s is not a table of series %(series)s (its tables: %(tables)s).") % {
                "value": part.strip(),
                "series": series.number,
                "tables": ", ".join(map(str, sorted(numbers))),
            }
        chosen.append(value)
    return sorted(set(chosen))


@director_required
def series_cards(request: HttpRequest, tournament: Tournament, number: int) -> HttpResponse:
    """The table cards of a series, with each table's entry link as QR code on the
    office's hall address (no PINs: the whole table reads the card; see
    :func:`series_pin_slips`). ``?tables=3,7``: those tables' cards only (changed
    after the draw)."""
    series = series_or_404(tournament, number)
    tables = _tables_param(request, series)
    if isinstance(tables, str):
        return _bad(request, tournament, tables)
    parts = ("tables", "-".join(map(str, tables))) if tables else ()
    response = _pdf(_name(tournament, "series", number, *parts, "table-cards"))
    documents.series_cards_pdf(
        series, absolute_url=partial(absolute_link, request), out=response, table_numbers=tables
    )
    return response


@director_required
def series_pin_slips(request: HttpRequest, tournament: Tournament, number: int) -> HttpResponse:
    """Each seated player's PIN slip, handed to him face down: he alone confirms his
    table's sheet with it (5.5.3). ``?table=<n>``: one table's slips only, for new ones
    after its link was replaced (a new link means new PINs, signoff.pins); ``?tables=3,7``:
    those tables' slips (changed after the draw)."""
    series = series_or_404(tournament, number)
    selected = request.GET.get("table", "")
    table_number = None
    if selected:
        numbers = set(series.tables.values_list("number", flat=True))
        # Compared in Python, so a number too large for the database column is just
        # another unknown table.
        table_number = number_param(selected)
        if table_number not in numbers:
            return _bad(
                request,
                tournament,
                _("table: %(value)s is not a table of series %(series)s (its tables: 1 to %(last)s).")
                % {"value": selected, "series": number, "last": max(numbers, default=0)},
            )
    tables = _tables_param(request, series)
    if isinstance(tables, str):
        return _bad(request, tournament, tables)
    parts = ("table", table_number) if table_number else ()
    parts += ("tables", "-".join(map(str, tables))) if tables else ()
    response = _pdf(_name(tournament, "series", number, *parts, "pin-slips"))
    documents.series_pin_slips_pdf(series, pin=seat_pin, out=response, table_number=table_number, table_numbers=tables)
    return response


@director_required
def series_settlement(request: HttpRequest, tournament: Tournament, number: int) -> HttpResponse:
    """The settlement sheet (5.5.5 and fee account) of every table of a series."""
    series = series_or_404(tournament, number)
    response = _pdf(_name(tournament, "series", number, "settlement"))
    documents.series_settlement_pdf(series, out=response)
    return response


@director_required
def table_settlement(request: HttpRequest, tournament: Tournament, number: int, table: int) -> HttpResponse:
    series = series_or_404(tournament, number)
    table_obj = get_object_or_404(Table.objects.select_related("series"), series=series, number=table)
    response = _pdf(_name(tournament, "series", number, "table", table, "settlement"))
    response.write(documents.table_settlement_pdf(table_obj))
    return response


#: ``?appendix=`` of the ranking list: the places whose running-score chart is appended.
APPENDIX = {"0": 0, "1": documents.APPENDIX_PLACES, "all": None}


@director_required
def standings_pdf(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The ranking list: overall, or ``?series=<n>`` for one series.

    With the running-score charts of the first 100 places appended (``?appendix=1``, the
    default), of every player (``?appendix=all``) or none (``?appendix=0``).
    ``?view=teams``: the team ranking list (no charts), for a tournament with teams.
    ``?category=<id>``: the category's own ranking (its players, placed from 1).
    """
    view = request.GET.get("view") or "players"
    if view not in ("players", "teams"):
        return _bad(request, tournament, _("view: %(value)s is not a choice: players or teams.") % {"value": view})
    if view == "teams" and not tournament.teams.exists():
        return _bad(
            request,
            tournament,
            _("view: this tournament has no teams; give players a team on the players page first."),
        )
    choice = request.GET.get("appendix") or "1"  # empty, like ?series=, means the default
    if choice not in APPENDIX:
        return _bad(
            request,
            tournament,
            _("appendix: %(value)s is not a choice: 0 (no charts), 1 (the first %(places)s places) or all.")
            % {"value": choice, "places": documents.APPENDIX_PLACES},
        )
    numbers = list(tournament.series.order_by("number").values_list("number", flat=True))
    selected = request.GET.get("series", "")
    series_number = None
    if selected:
        series_number = number_param(selected)
        if series_number not in numbers:
            drawn = ", ".join(map(str, numbers)) or _("none yet")
            return _bad(
                request,
                tournament,
                _("series: %(value)s is not a drawn series of this tournament (drawn: %(drawn)s).")
                % {"value": selected, "drawn": drawn},
            )
    try:
        category = chosen_category(tournament, request.GET.get("category"))
    except CategoryError as error:
        return _bad(request, tournament, str(error))
    teams = view == "teams"
    parts = ("team-standings" if teams else "standings",) + (("series", series_number) if series_number else ())
    if category is not None and not teams:
        parts += (Name(category.name) if slug(category.name) else "category",)
    out = io.BytesIO()
    documents.standings_pdf(
        tournament,
        series_number=series_number,
        appendix=APPENDIX[choice],
        out=out,
        teams=teams,
        category=None if teams else category,
    )
    response = _pdf(_name(tournament, *parts))
    response.write(out.getvalue())
    return response


@director_required
def prize_list_pdf(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The prize list to pay out from: place, player, prize and a line for his signature."""
    tournament, _account, payout = accounts.tournament_money(tournament, cached_standings(request, tournament))
    if isinstance(payout, FeeError):
        return _bad(request, tournament, _("prizes: %(error)s") % {"error": payout})
    response = _pdf(_name(tournament, "prize-list"))
    documents.prize_list_pdf(tournament, payout, finality=finality(tournament), out=response)
    return response


#: The most overall places a certificates PDF prints (one page each).
MOST_CERTIFICATES = 100


@director_required
def certificates_pdf(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Certificates for the prize-giving: places 1 to ``?places=`` (3 by default) and each
    category's winner, one page each."""
    # number_param: "²" passes isdigit() but int() refuses it, and so does a 5,000-digit one (a 500).
    places = number_param(request.GET.get("places", "3").strip())
    if places is None or not 1 <= places <= MOST_CERTIFICATES:
        return _bad(
            request,
            tournament,
            _("places: a whole number from 1 to %(most)s (the places that get a certificate)")
            % {"most": MOST_CERTIFICATES},
        )
    response = _pdf(_name(tournament, "certificates"))
    ranked = cached_standings(request, tournament)
    documents.certificates_pdf(tournament, ranked, places=places, out=response, finality=finality(tournament))
    return response


@director_required
def start_list_pdf(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The start list for the wall: start number, name, club and each drawn series'
    table and seat, alphabetical by surname."""
    response = _pdf(_name(tournament, "start-list"))
    documents.start_list_pdf(tournament, out=response)
    return response


@director_required
def start_cards_pdf(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Each player's start card with his start number and his own page's private link as a
    QR code (players): where he sits after every draw, his results and place."""
    response = _pdf(_name(tournament, "start-cards"))
    documents.start_cards_pdf(tournament, absolute_url=partial(absolute_link, request), out=response)
    return response


def public_standings_pdf(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The ranking list PDF of the scope for everybody (no charts appended): made once per
    change of the results, whoever asks."""
    return _public_standings_pdf(request, published_tournament(request, tournament_id))


@conditional
def _public_standings_pdf(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    mark = mark_of(request, tournament)
    try:
        scope = scope_for(request, tournament, mark)
    except CategoryError as error:
        return bad_category(request, tournament, error)

    def make() -> bytes:
        out = io.BytesIO()
        documents.standings_pdf(
            tournament,
            series_number=scope.series_number,
            appendix=0,
            out=out,
            teams=scope.teams,
            category=scope.category,
        )
        return out.getvalue()

    pdf = cached(cache_key(tournament, mark, "pdf", *scope.key(), language=True), make)
    response = HttpResponse(pdf, content_type="application/pdf")
    name = "-".join(filter(None, [slugify(tournament.name) or "tournament", "standings", scope_query(scope)]))
    response["Content-Disposition"] = f'inline; filename="{slugify(name)}.pdf"'
    return response
