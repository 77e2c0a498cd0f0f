"""The director's view of one table: its players, its sheet and second list, where it
stands (deals, sign-off), its links and documents, and the seat changes before play.

The dashboard's tiles and the series page open it. Entering a deal is a separate,
labelled action: the table's entry form (the scorekeeper's link) opens only from its
button, so looking at a table never starts an entry.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _

from core.addresses import loopback_office
from core.params import number_param
from draw.series import seats_editable
from scoring import tablesheet
from scoring.lists import differing_deals
from scoring.models import ControlEntry, Game
from scoring.state import play_started
from signoff import confirm as signoff
from tournaments.forms import MoveForm, SwapForm
from tournaments.lookups import series_or_404
from tournaments.models import Seat, Table, Tournament
from tournaments.permissions import director_required

from .progress import unsettled


@director_required
def table_detail(request: HttpRequest, tournament: Tournament, number: int, table_number: int) -> HttpResponse:
    """One table for the director: sheet, lists, state, links, documents, seat changes.

    ``?with=<table number>``: the other table of a swap or a move before play.
    """
    series = series_or_404(tournament, number)
    table = get_object_or_404(Table.objects.select_related("series__tournament"), series=series, number=table_number)
    seats = list(Seat.objects.filter(table=table).select_related("player__club").order_by("number"))
    names = {seat.number: seat.player.name for seat in seats}
    players = [names.get(n, "?") for n in range(1, table.size + 1)]
    games = list(Game.objects.filter(table=table).with_correction_reason().order_by("number"))
    sheet = tablesheet.build(table.size, table.deals, games)
    state = signoff.state(table, entered=len(games))
    editable = seats_editable(series, play_started=play_started(series))
    context = {
        "tournament": tournament,
        "series": series,
        "table": table,
        "seats": seats,
        "players": players,
        "sheet": sheet,
        "sheet_rows": tablesheet.rows_html(sheet, players),
        "signoff": state,
        # A difference a referee settled (the sheet stands) is no longer flagged.
        "lists_differ": unsettled(differing_deals([table.pk])).get(table.pk, []),
        "control_entered": ControlEntry.objects.filter(table=table).count(),
        "editable": editable,
        "loopback_office": loopback_office(request),
    }
    if editable:
        context |= _seat_change_forms(series, table, seats, request.GET.get("with", ""))
    return render(request, "dashboard/table.html", context)


def _seat_change_forms(series, table: Table, seats: list[Seat], other_number: str) -> dict:
    """Swap a player of this table with one of the other table, or move him there: the
    forms of tournaments' swap and move, their choices cut to the two tables."""
    other = None
    number = number_param(other_number)  # "²" passes isdigit() but is no number
    if number is not None and number != table.number:
        other = series.tables.filter(number=number).first()
    if other is None:
        return {"other": None}
    here = [(s.player_id, f"{s.number}. {s.player.name}") for s in seats]
    there = list(
        Seat.objects.filter(table=other).order_by("number").values_list("player_id", "number", "player__name")
    )
    there = [(pk, f"{seat}. {name}") for pk, seat, name in there]
    swap = SwapForm(players=here + there)
    swap.fields["first"].choices = here
    swap.fields["second"].choices = there
    move = MoveForm(players=here, tables=[(other.pk, _("Table %(n)s") % {"n": other.number})])
    return {"other": other, "swap_form": swap, "move_form": move}
