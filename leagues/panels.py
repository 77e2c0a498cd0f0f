"""The front page's panel of the leagues a user manages (referees.hooks.home_panels)."""

from __future__ import annotations

from django.http import HttpRequest
from django.template.loader import render_to_string
from django.utils.safestring import SafeString

from .models import League


def home_panels(request: HttpRequest) -> list[SafeString]:
    managed = list(League.objects.managed_by(request.user))
    published = list(League.objects.filter(published=True))
    if not managed and not published:
        return []
    context = {"managed": managed, "published": published}
    return [render_to_string("leagues/_home.html", context, request=request)]
