"""The director names the tournament's referees, and removes them."""

from __future__ import annotations

from django.contrib import messages
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
    # save() answers None when a twin request got in between: the form then says so.
    if request.method == "POST" and form.is_valid() and (saved := form.save(assigned_by=request.user)):
        user, created = saved
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
