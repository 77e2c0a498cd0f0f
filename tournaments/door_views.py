"""The door's pages: check-in and cash desk (search as you type, one tap for present
and paid, quick-add of a walk-in). Thin: tournaments.door and services hold the rules.

Without JavaScript every button is a plain form post and the page comes back whole;
with htmx the search swaps the list and a tap swaps its row and the totals.
"""

from __future__ import annotations

from django.contrib import messages
from django.db import IntegrityError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from core.paging import page_of

from . import door, services
from .models import Registration, Tournament
from .permissions import director_required
from .player_forms import QuickAddForm


def _everyone(tournament: Tournament):
    return (
        Registration.objects.filter(tournament=tournament)
        .select_related("player__club", "category")
        .order_by("player__sort_key", "player__name", "pk")
    )


def _registrations(tournament: Tournament):
    return _everyone(tournament).filter(withdrawn_after_series__isnull=True)


def _rows(tournament: Tournament, registrations) -> list[dict]:
    return [{"r": r, "amount": door.amount_due(tournament, r)} for r in registrations]


def _page(request: HttpRequest, tournament: Tournament, form: QuickAddForm, status: int = 200) -> HttpResponse:
    query = request.GET.get("q", "")
    # A page of the players (core.paging), the search's hits or the whole list.
    page = page_of(request, door.search(_registrations(tournament), query), door.SEARCH_LIMIT)
    rows = _rows(tournament, page)
    context = {
        "tournament": tournament,
        "form": form,
        "query": query,
        "page": page,
        "rows": rows,
        # Nobody still in: is it a player who withdrew (a no-show)? Say so, not "add him".
        "withdrawn": [] if rows else list(door.withdrawn_matching(_everyone(tournament), query)[:10]),
        "totals": door.totals(tournament),
    }
    template = "tournaments/_desk_list.html" if request.htmx and request.method == "GET" else "tournaments/desk.html"
    return render(request, template, context, status=status)


@director_required
def desk(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Check-in and cash desk: the registered players a page at a time, the search, the totals."""
    return _page(request, tournament, QuickAddForm(tournament=tournament, prefix="walkin"))


@require_POST
@director_required
def quick_add(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    form = QuickAddForm(request.POST, tournament=tournament, prefix="walkin", user=request.user)
    if form.is_valid():
        try:
            registration = services.register(tournament, form.entry())
        except IntegrityError:
            form.add_error("name", _("This player was registered meanwhile; look him up in the list."))
        else:
            messages.success(
                request,
                _("%(name)s is registered with start number %(number)s and present.")
                % {"name": registration.player.name, "number": registration.start_number},
            )
            query = urlencode({"q": registration.start_number})
            return redirect(reverse("director:desk", args=[tournament.pk]) + f"?{query}")
    return _page(request, tournament, form, status=422)


FLAGS = {"present": door.set_present, "paid": door.set_paid, "arrived": door.set_arrived}


@require_POST
@director_required
def toggle(request: HttpRequest, tournament: Tournament, registration_id: int, flag: str) -> HttpResponse:
    """One tap: present / not present, paid / not paid, or arrived (present and paid at
    once) (``value`` 1 or 0)."""
    if flag not in FLAGS:
        raise Http404
    registration = get_object_or_404(
        Registration.objects.select_related("player__club", "category"), pk=registration_id, tournament=tournament
    )
    value = request.POST.get("value")
    if value not in ("0", "1"):
        messages.error(request, _("value: send 1 or 0."))
        return redirect("director:desk", tournament.pk)
    FLAGS[flag](registration, value == "1")
    if request.htmx:
        context = {
            "tournament": tournament,
            "row": {"r": registration, "amount": door.amount_due(tournament, registration)},
            "totals": door.totals(tournament),
            "oob": True,
        }
        return render(request, "tournaments/_desk_row.html", context)
    query = urlencode({"q": request.POST.get("q", ""), "page": request.POST.get("page", "")})
    return redirect(reverse("director:desk", args=[tournament.pk]) + f"?{query}")
