"""The front page's league panel (fills referees.hooks.front_page_above_referees): the published season
tables for everybody, anonymous visitors included; for a league official also the
leagues he manages and the way to set up a new one. Two queries."""

from __future__ import annotations

from django.db.models import Exists, OuterRef, Prefetch, Q, Value
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.utils.safestring import SafeString

from .models import Group, League


def _leagues(user) -> list[League]:
    """Published leagues and those the user manages, each with ``managed`` set and its groups."""
    groups = Prefetch("groups", queryset=Group.objects.order_by("name"))
    if not user.is_authenticated:
        return list(League.objects.filter(published=True).annotate(managed=Value(False)).prefetch_related(groups))
    if user.is_superuser:
        return list(League.objects.annotate(managed=Value(True)).prefetch_related(groups))
    manages = League.managers.through.objects.filter(league=OuterRef("pk"), user=user)
    found = League.objects.annotate(managed=Exists(manages)).filter(Q(published=True) | Q(managed=True))
    return list(found.prefetch_related(groups))


def leagues_panel(request: HttpRequest) -> list[SafeString]:
    """The panel, or none when there is nothing to show (no published league, nothing to manage)."""
    user = request.user
    leagues = _leagues(user)
    may_add = user.is_authenticated and user.has_perm("leagues.add_league")
    if not leagues and not may_add:
        return []
    context = {
        "managed": [x for x in leagues if x.managed],
        "published": [x for x in leagues if x.published],
        "may_add": may_add,
    }
    return [render_to_string("leagues/_home.html", context, request=request)]
