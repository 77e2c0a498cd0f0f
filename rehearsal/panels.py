"""The dashboard's rehearsal panel (tournaments.hooks.dashboard_panels): only a practice
tournament has one, with "Play in background" or, while it plays, how far it is and "Stop"."""

from __future__ import annotations

from django.http import HttpRequest
from django.template.loader import render_to_string
from django.utils.safestring import SafeString

from . import background
from .views import PaceForm


def practice_panel(request: HttpRequest, tournament) -> list[SafeString]:
    """The panel of a practice tournament, none for a real one; fills tournaments.hooks.dashboard_panels."""
    if not tournament.practice:
        return []
    run = background.current(tournament.pk)
    context = {"tournament": tournament, "run": run, "form": PaceForm()}
    context["elsewhere"] = background.elsewhere(tournament.pk)
    return [render_to_string("rehearsal/_panel.html", context, request=request)]
