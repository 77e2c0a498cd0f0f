"""What several of the referees' pages look up: always inside the URL's tournament (404 else)."""

from __future__ import annotations

from django.shortcuts import get_object_or_404

from scoring.models import Game
from tournaments.models import Table, Tournament


def players_of(table: Table) -> dict[int, str]:
    """The table's players' names by seat number."""
    return dict(table.seats.order_by("number").values_list("number", "player__name"))


def table_or_404(tournament: Tournament, table_id: int) -> Table:
    return get_object_or_404(
        Table.objects.select_related("series__tournament"), pk=table_id, series__tournament=tournament
    )


def game_or_404(tournament: Tournament, game_id: int) -> Game:
    return get_object_or_404(
        Game.objects.select_related("table__series__tournament"), pk=game_id, table__series__tournament=tournament
    )
