"""Look-ups every app's views share: an object of the URL, or 404; who may see a tournament."""

from __future__ import annotations

from django.http import Http404, HttpRequest
from django.shortcuts import get_object_or_404

from .models import Series, Table, Tournament


def series_or_404(tournament: Tournament, number: int) -> Series:
    """Series ``number`` of ``tournament`` (with its tournament), or 404."""
    return get_object_or_404(Series.objects.select_related("tournament"), tournament=tournament, number=number)


def table_of_link(token: str) -> Table:
    """The table a table link's token opens (the sheet's token), or 404 like any unknown token."""
    return get_object_or_404(Table.objects.select_related("series__tournament"), token=token)


def names_by_seat(table: Table) -> dict[int, str]:
    """The table's players' names by seat number (one query)."""
    return dict(table.seats.order_by("number").values_list("number", "player__name"))


def published_tournament(request: HttpRequest, tournament_id: int) -> Tournament:
    """The tournament, if its standings are published or the user directs it; else 404
    (an unpublished tournament's public pages do not admit to existing)."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    if not (tournament.standings_public or tournament.is_director(request.user)):
        raise Http404
    return tournament
