"""Who may do what: directors run their tournaments; superusers run all of them."""

from __future__ import annotations

from functools import wraps

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404

from .models import Tournament


def director_required(view):
    """Load ``tournament_id`` as ``tournament`` and refuse anyone who does not direct it."""

    @login_required
    @wraps(view)
    def wrapper(request, tournament_id: int, *args, **kwargs):
        tournament = get_object_or_404(Tournament, pk=tournament_id)
        if not tournament.is_director(request.user):
            raise PermissionDenied("You do not direct this tournament.")
        return view(request, tournament, *args, **kwargs)

    return wrapper


def results_reader_required(view):
    """Like :func:`director_required`, and also lets in whom the apps above allow to read
    the tournament's results (its referees, tournaments.hooks.reads_results): for pages
    that only show results and change nothing."""
    from . import hooks

    @login_required
    @wraps(view)
    def wrapper(request, tournament_id: int, *args, **kwargs):
        tournament = get_object_or_404(Tournament, pk=tournament_id)
        if not (tournament.is_director(request.user) or hooks.reads_results(tournament, request.user)):
            raise PermissionDenied("You neither direct nor referee this tournament.")
        return view(request, tournament, *args, **kwargs)

    return wrapper


def paper_list_typist_required(view):
    """Like :func:`director_required`, and also lets in whom the apps above allow to type a
    table's paper list at the desk (its referees, tournaments.hooks.types_paper_lists)."""
    from . import hooks

    @login_required
    @wraps(view)
    def wrapper(request, tournament_id: int, *args, **kwargs):
        tournament = get_object_or_404(Tournament, pk=tournament_id)
        if not (tournament.is_director(request.user) or hooks.types_paper_lists(tournament, request.user)):
            raise PermissionDenied("You neither direct nor referee this tournament.")
        return view(request, tournament, *args, **kwargs)

    return wrapper
