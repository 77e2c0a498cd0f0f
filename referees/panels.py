"""What the referees app adds to pages of the apps below it (through their hooks)."""

from __future__ import annotations

from django.http import HttpRequest
from django.template.loader import render_to_string
from django.utils.safestring import SafeString

from . import hooks
from .models import RefereeAssignment


def front_page_from_referees(request: HttpRequest) -> list[SafeString]:
    """The front page's list of the tournaments the user referees, newest first, then the
    panels of the apps above (referees.hooks.front_page_above_referees: the leagues'); fills
    tournaments.hooks.front_page_panels."""
    refereed = list(RefereeAssignment.objects.tournaments_of(request.user).order_by("-date", "name"))
    own = [render_to_string("referees/_home.html", {"refereed": refereed}, request=request)] if refereed else []
    return own + hooks.front_page_above_referees(request)
