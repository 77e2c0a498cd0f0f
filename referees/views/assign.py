"""The director names the tournament's referees, and removes them."""

from __future__ import annotations

from django.contrib import messages
from django.db import IntegrityError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournaments.models import Tournament
from tournaments.permissions import director_required

from ..forms import AssignForm
from ..models import RefereeAssignment


@director_required
def assign(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The director names the tournament's referees."""
    form = AssignForm(request.POST if request.method == "POST" else None, tournament=tournament)
    if request.method == "POST" and form.is_valid():
        try:
            user, created = form.save(assigned_by=request.user)
        except IntegrityError:
            # A second post (a double tap, another director) made the account or the
            # assignment between this form's checks and its save: nothing of this one is kept.
            form.add_error(
                "username",
                _("%(name)s was just made or assigned from another request; see the list above.")
                % {"name": form.cleaned_data["username"]},
            )
        else:
            text = _("%(name)s referees this tournament now.") % {"name": user.get_username()}
            if created:
                text += " " + _("The account was created: give the referee the user name and the password.")
            messages.success(request, text)
            return redirect("referees:assign", tournament.pk)
    assignments = RefereeAssignment.objects.filter(tournament=tournament).select_related("user", "assigned_by")
    return render(
        request,
        "referees/assign.html",
        {"tournament": tournament, "form": form, "assignments": assignments, "is_director": True},
        status=422 if form.errors else 200,
    )


@require_POST
@director_required
def unassign(request: HttpRequest, tournament: Tournament, assignment_id: int) -> HttpResponse:
    assignment = get_object_or_404(RefereeAssignment, pk=assignment_id, tournament=tournament)
    assignment.delete()
    messages.success(request, _("%(name)s no longer referees this tournament.") % {"name": assignment.user})
    return redirect("referees:assign", tournament.pk)
