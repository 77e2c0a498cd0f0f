"""The player's own page (his private link) and the lookup by start number and surname.

Thin: players.services gathers the page, players.lookup checks the form, players.throttle
counts the lookups. The lookup shows only what the hall's seat board shows everybody (the
player's table and seat now): start number and surname are public (the standings list
both), so they never open the private page; its link is on the start card alone. The
page's URL holds its secret (a capability URL, like the table links):
tablelink.links.CapabilityURLHeaders keeps it out of caches and search engines, and
config.logs out of the log.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotAllowed
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from tournaments.models import Tournament

from .lookup import MISS, LookupForm, find
from .services import player_page, registration_for, seat_now
from .throttle import begin


def page(request: HttpRequest, token: str) -> HttpResponse:
    """Where he sits in the series now drawn, his results and place, his rankings. Any
    other token is a 404 like any unknown page, whatever the method (as the table links:
    a guess learns nothing from a 405); the page itself only reads."""
    registration = registration_for(token)
    if registration is None:
        raise Http404
    if request.method not in ("GET", "HEAD"):
        return HttpResponseNotAllowed(["GET", "HEAD"])
    page = player_page(registration)
    return render(request, "players/page.html", {"page": page, "tournament": page.tournament})


@require_http_methods(["GET", "HEAD", "POST"])
def lookup(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The form: start number and surname; a match shows his table and seat now (what the
    seat board shows), never the private link. Counted before it is checked and refused
    after too many misses from one address or IPv6 /64 (429, nothing counted). Any number
    answers with the form, an unknown tournament's too (every lookup then misses), and the
    tournament is named (and a practice one marked) only once its standings are published
    or to its director: like the public pages, the form does not tell which tournaments
    exist, nor which are rehearsals."""
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    form = LookupForm(request.POST if request.method == "POST" else None)
    # Named (and, a rehearsal's, marked practice by base.html) only where the public pages
    # would show it: published, or to its director (tournaments.lookups.published_tournament).
    # An unpublished tournament's form is that of an unknown number: no banner either.
    shown = tournament if tournament is not None and _public_to(tournament, request) else None
    status = 200
    if request.method == "POST" and form.is_valid():
        counted = begin(request)
        if counted.refused:
            form.add_error(
                None,
                _("Too many lookups from this device have failed. Try again in a few minutes, or ask at the desk."),
            )
            status = 429
        else:
            found = tournament and find(tournament, form.cleaned_data["start_number"], form.cleaned_data["surname"])
            if found is not None:
                counted.found()
                context = {"tournament": shown, "registration": found, "seat": seat_now(found)}
                return render(request, "players/seat.html", context)
            form.add_error(None, MISS)
    return render(request, "players/lookup.html", {"tournament": shown, "form": form}, status=status)


def _public_to(tournament: Tournament, request: HttpRequest) -> bool:
    return tournament.standings_public or tournament.is_director(request.user)
