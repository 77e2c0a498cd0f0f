"""The director replaces table links: one table's, or every table's of a series.

A replaced link is dead at once (its token answers 404 like any unknown one); the new
one is shown on the series page with its QR code. Use it when a link has leaked (a
photo of the table card, a phone left behind) or a scorekeeper changes. The seats' PINs
are derived from the link (signoff.pins), so they change with it: the players need new
PIN slips (one table's: ``pin-slips.pdf?table=<n>``).
"""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from . import services
from .models import Series, Table, Tournament
from .permissions import director_required


@require_POST
@director_required
def reissue_table_link(request: HttpRequest, tournament: Tournament, number: int, table_number: int) -> HttpResponse:
    series = get_object_or_404(Series, tournament=tournament, number=number)
    table = get_object_or_404(Table, series=series, number=table_number)
    services.reissue_links([table])
    messages.success(
        request,
        _(
            "Table %(n)s has a new link and new PINs; the old link no longer opens the sheet. "
            "Give the table its new QR code and its players their new PIN slips."
        )
        % {"n": table.number},
    )
    return redirect("director:series", tournament.pk, number)


@require_POST
@director_required
def reissue_series_links(request: HttpRequest, tournament: Tournament, number: int) -> HttpResponse:
    series = get_object_or_404(Series, tournament=tournament, number=number)
    tables = list(series.tables.order_by("number"))
    services.reissue_links(tables)
    messages.success(
        request,
        ngettext(
            "The %(count)s table of series %(n)s has a new link and new PINs; the old link no longer opens the "
            "sheet. Print the new table card and PIN slips.",
            "All %(count)s tables of series %(n)s have new links and new PINs; the old links no longer open any "
            "sheet. Print the new table cards and PIN slips.",
            len(tables),
        )
        % {"count": len(tables), "n": number},
    )
    return redirect("director:series", tournament.pk, number)
