"""Who may run a ranking: its directors and superusers; who may read it: anyone once it is published."""

from __future__ import annotations

from functools import wraps

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404

from .models import Ranking


def director_required(view):
    """Load ``ranking_id`` as ``ranking``; refuse anyone who does not direct it."""

    @login_required
    @wraps(view)
    def wrapper(request, ranking_id: int, *args, **kwargs):
        ranking = get_object_or_404(Ranking, pk=ranking_id)
        if not ranking.is_director(request.user):
            raise PermissionDenied("You do not direct this ranking.")
        return view(request, ranking, *args, **kwargs)

    return wrapper


def published(view):
    """Load a published ranking (or one the user directs: his preview); any other is 404."""

    @wraps(view)
    def wrapper(request, ranking_id: int, *args, **kwargs):
        ranking = Ranking.objects.filter(pk=ranking_id).first()
        if ranking is None or not (ranking.public or ranking.is_director(request.user)):
            raise Http404("No published ranking.")
        return view(request, ranking, *args, **kwargs)

    return wrapper
