"""Who may referee: the tournament's referees and its directors (who may do everything)."""

from __future__ import annotations

from functools import wraps

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404

from tournaments.models import Tournament

from .models import RefereeAssignment


def is_referee(tournament: Tournament, user) -> bool:
    """A referee of this tournament, or one of its directors (or a superuser)."""
    if not user.is_authenticated:
        return False
    if tournament.is_director(user):
        return True
    return RefereeAssignment.objects.filter(tournament=tournament, user=user).exists()


def referee_required(view):
    """Load ``tournament_id`` as ``tournament``; refuse anyone who does not referee or direct it."""

    @login_required
    @wraps(view)
    def wrapper(request, tournament_id: int, *args, **kwargs):
        tournament = get_object_or_404(Tournament, pk=tournament_id)
        if not is_referee(tournament, request.user):
            raise PermissionDenied("You do not referee this tournament.")
        return view(request, tournament, *args, **kwargs)

    return wrapper
