"""The front page's panel of the leagues a user manages and of the published league tables
(referees.hooks.home_panels): one query."""

from __future__ import annotations

from django.db.models import Exists, OuterRef, Q, Value
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.utils.safestring import SafeString

from .models import League


def _leagues(user) -> list[League]:
    """Published leagues and those the user manages, each with ``managed`` set."""
    if user.is_superuser:
        return list(League.objects.annotate(managed=Value(True)))
    manages = League.managers.through.objects.filter(league=OuterRef("pk"), user=user)
    return list(League.objects.annotate(managed=Exists(manages)).filter(Q(published=True) | Q(managed=True)))


def home_panels(request: HttpRequest) -> list[SafeString]:
    """Logged-in users only: the front page shows its panels to them (tournaments/home.html)."""
    if not request.user.is_authenticated:
        return []
    leagues = _leagues(request.user)
    if not leagues:
        return []
    context = {"managed": [x for x in leagues if x.managed], "published": [x for x in leagues if x.published]}
    return [render_to_string("leagues/_home.html", context, request=request)]
