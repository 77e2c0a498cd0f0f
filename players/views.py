"""The player's own page (his private link) and the lookup by start number and surname.

Thin: players.services gathers the page, players.lookup checks the form, players.throttle
counts the misses. The page's URL holds its secret (a capability URL, like the table
links): tablelink.links.CapabilityURLHeaders keeps it out of caches and search engines,
config.access keeps it out of the log.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotAllowed
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from tournaments.models import Tournament
from tournaments.player_links import player_path

from .lookup import MISS, LookupForm, find
from .services import player_page, registration_for
from .throttle import count_failure, locked


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
    """The form: start number and surname; a match goes to the player's page. Refused
    after too many misses from one address (429, nothing counted). Any number answers
    with the form, an unknown tournament's too (every lookup then misses), and the
    tournament is named (and a practice one marked) only once its standings are published
    or to its director: like the public pages, the form does not tell which tournaments
    exist, nor which are rehearsals."""
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    form = LookupForm(request.POST if request.method == "POST" else None)
    status = 200
    if request.method == "POST":
        if locked(request):
            form.is_valid()
            form.add_error(
                None,
                _("Too many lookups from this device have failed. Try again in a few minutes, or ask at the desk."),
            )
            status = 429
        elif form.is_valid():
            found = tournament and find(tournament, form.cleaned_data["start_number"], form.cleaned_data["surname"])
            if found is not None:
                return redirect(player_path(found))
            count_failure(request)
            form.add_error(None, MISS)
    # Named (and, a rehearsal's, marked practice by base.html) only where the public pages
    # would show it: published, or to its director (tournaments.lookups.published_tournament).
    # An unpublished tournament's form is that of an unknown number: no banner either.
    shown = tournament if tournament is not None and _public_to(tournament, request) else None
    return render(request, "players/lookup.html", {"tournament": shown, "form": form}, status=status)


def _public_to(tournament: Tournament, request: HttpRequest) -> bool:
    return tournament.standings_public or tournament.is_director(request.user)
