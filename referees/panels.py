"""What the referees app adds to pages of the apps below it (through their hooks)."""

from __future__ import annotations

from django.http import HttpRequest
from django.template.loader import render_to_string
from django.utils.safestring import SafeString

from .models import RefereeAssignment


def home_panels(request: HttpRequest) -> list[SafeString]:
    """The front page's list of the tournaments the user referees, newest first."""
    refereed = list(RefereeAssignment.objects.tournaments_of(request.user).order_by("-date", "name"))
    if not refereed:
        return []
    return [render_to_string("referees/_home.html", {"refereed": refereed}, request=request)]
