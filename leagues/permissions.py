"""Who may run a league: its managers (Staffelleiter) and superusers."""

from __future__ import annotations

from functools import wraps

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404

from .models import League, MatchDay


def manager_required(view):
    """Load ``league_id`` as ``league``; refuse anyone who does not manage it."""

    @login_required
    @wraps(view)
    def wrapper(request, league_id: int, *args, **kwargs):
        league = get_object_or_404(League, pk=league_id)
        if not league.is_manager(request.user):
            raise PermissionDenied("You do not manage this league.")
        return view(request, league, *args, **kwargs)

    return wrapper


def match_day_manager_required(view):
    """Load ``match_day_id`` as ``match_day`` (with its group and league); managers only."""

    @login_required
    @wraps(view)
    def wrapper(request, match_day_id: int, *args, **kwargs):
        match_day = get_object_or_404(MatchDay.objects.select_related("group__league", "tournament"), pk=match_day_id)
        if not match_day.group.league.is_manager(request.user):
            raise PermissionDenied("You do not manage this league.")
        return view(request, match_day, *args, **kwargs)

    return wrapper


def published_league(league_id: int, user=None) -> League:
    """A league whose tables are public (or one ``user`` manages: his preview); any other
    answers 404 on the public pages."""
    league = League.objects.filter(pk=league_id).first()
    if league is None or not (league.published or (user is not None and league.is_manager(user))):
        raise Http404("No published league.")
    return league
