"""The director lets a second director or a helper at the desk in, and takes them out.

A director may do everything on the tournament's pages, this list included; the
tournament always keeps one (services.remove_director). The rules are in services.py
and the account check in accounts.py: the views only say what happened.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from . import services
from .forms import DirectorForm
from .models import Tournament
from .permissions import director_required


@director_required
def directors(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The tournament's directors, and the form that names one more."""
    form = DirectorForm(request.POST if request.method == "POST" else None, tournament=tournament)
    # save() answers None when a twin request got in between: the form then says so.
    if request.method == "POST" and form.is_valid() and (saved := form.save()):
        user, created = saved
        text = _("%(name)s directs this tournament now.") % {"name": user.get_username()}
        if created:
            text += " " + _("The account was created: give the director the user name and the password.")
        messages.success(request, text)
        return redirect("director:directors", tournament.pk)
    people = tournament.directors.order_by(get_user_model().USERNAME_FIELD)
    return render(
        request,
        "tournaments/directors.html",
        {"tournament": tournament, "form": form, "directors": people},
        status=422 if form.errors else 200,
    )


@require_POST
@director_required
def director_remove(request: HttpRequest, tournament: Tournament, user_id: int) -> HttpResponse:
    user = get_object_or_404(tournament.directors.all(), pk=user_id)
    name = user.get_username()
    try:
        services.remove_director(tournament, user)
    except services.DirectorStays as refused:
        messages.error(request, _("Directors: %(reason)s") % {"reason": refused})
        return redirect("director:directors", tournament.pk)
    messages.success(request, _("%(name)s no longer directs this tournament.") % {"name": name})
    if tournament.is_director(request.user):
        return redirect("director:directors", tournament.pk)
    # He took himself out: the tournament's pages are closed to him now.
    return redirect("director:home")
