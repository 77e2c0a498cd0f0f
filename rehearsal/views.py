"""The dashboard's "Play in background" of a practice tournament: start and stop the rehearsal.

Thin: :mod:`.background` keeps the thread; a tournament that is not a practice one is
refused (and shows no button: :mod:`.panels`).
"""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from tournaments.models import Tournament
from tournaments.permissions import director_required

from . import background


class PaceForm(forms.Form):
    """How fast the practice tables play: seconds per deal at each table (0: as fast as possible)."""

    pace = forms.FloatField(
        label=gettext_lazy("seconds per deal at each table"),
        min_value=0,
        max_value=600,
        initial=60,
        help_text=gettext_lazy("0 plays as fast as the office answers; a real table takes 60 to 120 seconds."),
    )


@require_POST
@director_required
def start(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    form = PaceForm(request.POST)
    if not form.is_valid():
        for error in form.errors.get("pace", []):
            messages.error(request, f"{form['pace'].label}: {error}")
        return redirect(tournament)
    try:
        background.start(tournament, form.cleaned_data["pace"])
    except background.RehearsalRefused as refused:
        messages.error(request, str(refused))
    else:
        messages.success(request, _("The practice tables are playing: the dashboard shows their deals as they come."))
    return redirect(tournament)


@require_POST
@director_required
def stop(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    try:
        background.stop(tournament.pk)
    except background.RehearsalRefused as refused:
        messages.error(request, str(refused))
    else:
        messages.success(request, _("The practice tables stop after the deal under way."))
    return redirect(tournament)
