"""Correcting a registered player from the players page: name, club, membership number,
team and category. The change shows everywhere: standings and printed sheets read the
player's name and club from the database."""

from __future__ import annotations

from django.contrib import messages
from django.db import IntegrityError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from .models import Registration, Tournament
from .permissions import director_required
from .player_forms import PlayerEditForm, shared_message
from .services import PersonShared

#: The latest changes of the person shown under the form.
CHANGES_SHOWN = 10


@director_required
def player_edit(request: HttpRequest, tournament: Tournament, registration_id: int) -> HttpResponse:
    registration = get_object_or_404(
        Registration.objects.select_related("player__club", "team", "category", "tournament"),
        pk=registration_id,
        tournament=tournament,
    )
    form = PlayerEditForm(
        request.POST if request.method == "POST" else None, registration=registration, user=request.user
    )
    if request.method == "POST" and form.is_valid():
        try:
            form.save()
        except PersonShared as shared:  # a tournament or league he joined meanwhile
            form.add_error(None, shared_message(shared.name, shared.places))
        except IntegrityError:
            form.add_error(None, _("Another player took this name or membership number meanwhile; nothing changed."))
        else:
            messages.success(request, _("%(name)s is saved.") % {"name": form.cleaned_data["name"]})
            return redirect("director:players", tournament.pk)
    changes = registration.player.changes.select_related("user")[:CHANGES_SHOWN]
    context = {"tournament": tournament, "registration": registration, "form": form, "changes": changes}
    return render(request, "tournaments/player_edit.html", context, status=422 if form.errors else 200)
