"""Where play stands, as the apps below the games ask it: whether a series or a tournament
has deals entered (seats and tables are then fixed, 3.1.2). Filled into tournaments.hooks
by this app; the draw imports it. Which sheets are confirmed is signoff.sheets."""

from __future__ import annotations

from tournaments.models import Series, Table


def play_started(series: Series) -> bool:
    """Whether a deal of the series is entered on its sheets (fills tournaments.hooks.play_started)."""
    return series.tables.filter(games__isnull=False).exists()


def deals_entered(tournament) -> bool:
    """Whether a deal of the tournament is entered (fills tournaments.hooks.deals_entered)."""
    return Table.objects.filter(series__tournament=tournament, games__isnull=False).exists()
