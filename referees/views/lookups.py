"""What several of the referees' pages look up: always inside the URL's tournament (404 else)."""

from __future__ import annotations

from django.shortcuts import get_object_or_404

from scoring.models import Game
from tournaments.lookups import names_by_seat as players_of
from tournaments.models import Table, Tournament

__all__ = ["game_or_404", "players_of", "table_or_404"]


def table_or_404(tournament: Tournament, table_id: int) -> Table:
    return get_object_or_404(
        Table.objects.select_related("series__tournament"), pk=table_id, series__tournament=tournament
    )


def game_or_404(tournament: Tournament, game_id: int) -> Game:
    return get_object_or_404(
        Game.objects.select_related("table__series__tournament"), pk=game_id, table__series__tournament=tournament
    )
