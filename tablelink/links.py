"""The life of a table link: open while its series runs, closed once it is finished.

A link (``Table.token``, 128 random bits) opens one table of one series and nothing
else. When the director finishes the series the sheet is closed: the link still shows
the finished sheet read-only (the players check it before signing), but every entry
URL answers 410 Gone with a page that says why and who corrects it now (a referee,
5.5.3). A director can also replace a link (tournaments/link_views.py): the old token
then answers 404 like any unknown one.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse

from scoring.compiled import Compiled
from scoring.forms import ControlEntryForm, GameForm
from scoring.models import ControlEntry, Game, ScoresheetLine
from scoring.models.deals import UNSHOWN_FIELDS
from tournaments.models import Seat, Series, Table, Tournament


def is_closed(table: Table) -> bool:
    """Entry through the link is over: the series is finished."""
    return table.series.status == Series.Status.FINISHED


def closed_response(request: HttpRequest, table: Table, link: str | None = None) -> HttpResponse:
    """410 Gone for an entry URL of a finished series; htmx follows to the read-only sheet
    of the same link (``link``: the token used, the sheet's or the second list's)."""
    link = link or table.token
    context = {"table": table, "series": table.series, "tournament": table.series.tournament, "link": link}
    response = render(request, "tablelink/link_closed.html", context, status=410)
    if getattr(request, "htmx", False):
        response["HX-Redirect"] = reverse("table:sheet", args=[link])
    return response


class CapabilityURLHeaders:
    """Middleware: a table link is a secret in the URL (a capability URL), so its pages
    are never stored by a shared cache or the browser's disk cache and never indexed
    (W3C, "Good Practices for Capability URLs"); Referrer-Policy same-origin (settings)
    keeps the link from other sites."""

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        match = getattr(request, "resolver_match", None)
        if match is not None and "token" in match.kwargs:
            response["Cache-Control"] = "no-store, private"
            response["X-Robots-Tag"] = "noindex, nofollow"
            # Not "no-referrer": browsers then send "Origin: null" with the page's own
            # forms and Django's CSRF check refuses them. The site-wide "same-origin"
            # (settings) already keeps the token from other sites.
        return response


@dataclass(frozen=True, slots=True)
class Link:
    """What a token opens (tablelink.views._open_link): its table, the players by seat, and which list."""

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


#: The models a link's query reads whole, each row's columns in their order.
_WHOLE = ((Table, "table__"), (Series, "table__series__"), (Tournament, "table__series__tournament__"))


def _seats_and_table(token: str, control_token: str):
    """The seats of the table with either token, each row with its player's name and the
    table, its series and its tournament whole (every concrete field)."""
    columns = ["number", "player__name"]
    for model, path in _WHOLE:
        columns += [path + field.name for field in model._meta.concrete_fields]
    either = Q(table__token=token) | Q(table__control_token=control_token)
    return Seat.objects.filter(either).order_by("number").values_list(*columns)


def _token_twice(token: str, control_token: str, *, connection) -> list[str]:
    return [token, control_token]


#: Asked by every request of a phone at a table: compiled once (scoring.compiled).
_SEATS = Compiled(_seats_and_table, ("Qz-sheet-token", "Qz-second-token"), _token_twice, orm_converters=True)


def open_link(token: str) -> Link:
    """The link's table (its series and tournament with it) and its players by seat, in one
    query: every request of a phone at the table starts here, and on a server database
    each round trip counts. The table, series and tournament are built once (not once per
    seat, as select_related would), from a statement compiled once per process."""
    rows = _SEATS.rows(token, token)
    if not rows:  # a table without seats still opens (and a wrong token is a 404)
        table = get_object_or_404(
            Table.objects.select_related("series__tournament"), Q(token=token) | Q(control_token=token)
        )
        return Link(token, table, {}, control=table.token != token)
    first, at, made = rows[0], 2, []
    for model, _path in _WHOLE:
        fields = model._meta.concrete_fields
        made.append(model.from_db("default", [field.attname for field in fields], first[at : at + len(fields)]))
        at += len(fields)
    table, series, tournament = made
    series.tournament = tournament
    table.series = series
    return Link(token, table, {row[0]: row[1] for row in rows}, control=table.token != token)
