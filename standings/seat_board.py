"""The projector's "where do I sit" list: after each draw, before the standings.

When a series is drawn and its first deal not yet entered, 3,000 players want one thing
from the wall: their table. The projector then turns through every seated player by
surname, :data:`PER_SCREEN` to a screen (two columns of 20, in the standings' type), and
after the last screen through the standings, then the seats again, until the series'
first deal starts it (scoring.entry: the series is then running). Each screen is made once
per results mark: a draw, a swap or a move after it changes the mark (scoring.triggers),
so the wall shows every change of the seating.
"""

from __future__ import annotations

from django.db.models import Exists, OuterRef

from scoring.models import Game
from tournaments.models import Registration, Seat, Series, Tournament

#: Players on one screen: two columns of :data:`COLUMN` rows.
PER_SCREEN = 40
COLUMN = 20


def waiting_series(tournament: Tournament) -> int | None:
    """The number of the newest series if it is drawn and no deal of it is entered yet, else
    None (one query; a deal stored by an import or a test counts like one entered)."""
    return waiting_state(tournament)[0]


def waiting_state(tournament: Tournament) -> tuple[int | None, bool]:
    """:func:`waiting_series`, and whether a deal may change it: only while the newest series
    is drawn and not started (a series' status counts on the tournament's own counter)."""
    played = Game.objects.filter(table__series=OuterRef("pk"))
    newest = tournament.series.order_by("-number").values_list("number", "status", Exists(played)).first()
    if newest is None or newest[1] != Series.Status.DRAWN:
        return None, False
    return (None if newest[2] else newest[0]), True


def seat_rows(tournament: Tournament, number: int) -> list[dict]:
    """Every seated player of series ``number`` by surname: name, start number, table, seat (two queries)."""
    seats = (
        Seat.objects.filter(series__tournament=tournament, series__number=number)
        .order_by("player__sort_key", "player__name", "player_id")
        .values_list("player_id", "player__name", "table__number", "number")
    )
    starts = dict(
        Registration.objects.filter(tournament=tournament, start_number__isnull=False).values_list(
            "player_id", "start_number"
        )
    )
    return [
        {"name": name, "start_number": starts.get(player), "table": table, "seat": seat}
        for player, name, table, seat in seats
    ]


def columns(rows: list[dict]) -> list[list[dict]]:
    """A screen's rows as its columns, top to bottom then left to right (as a wall list reads)."""
    return [rows[i : i + COLUMN] for i in range(0, len(rows), COLUMN)] or [[]]
