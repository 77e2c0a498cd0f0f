"""The engine oracle: every player's rating recomputed from the entered fields alone.

The independent check of :func:`standings.places.standings` that the tests and the
load test's audit hold the office to.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from scoring.models import Game
from skat.rating import Rating
from skat.sheet import evaluate_sheet
from tournaments.models import Table, Tournament


def sheet_of(table, games: Iterable[Game]) -> dict:
    """A table's stored games as the plain scoresheet :func:`skat.sheet.evaluate_sheet` reads.

    Only the fields the scorekeeper entered go in; the engine values them afresh.
    """
    names = [str(seat.player_id) for seat in sorted(table.seats.all(), key=lambda s: s.number)]
    lines = []
    for game in games:
        if game.passed_out:
            lines.append({"passed": True})
            continue
        line = {"declarer": names[game.declarer_seat - 1], "contract": game.contract}
        for key in ("hand", "schneider_announced", "schwarz_announced", "ouvert"):
            line[key] = getattr(game, key)
        for key in ("tops", "declarer_points", "declarer_tricks", "bid"):
            if getattr(game, key) is not None:
                line[key] = getattr(game, key)
        lines.append(line)
    return {"players": names, "games": lines}


def engine_ratings(tournament: Tournament) -> dict[int, Rating]:
    """Every player's rating recomputed table by table from the entered fields alone.

    The independent check of :func:`standings.places.standings`: it reads no stored
    value or score, only what was entered, through the sheet evaluator and the engine.
    """
    games_by_table: dict[int, list[Game]] = defaultdict(list)
    for game in Game.objects.filter(table__series__tournament=tournament).order_by("table_id", "number"):
        games_by_table[game.table_id].append(game)
    totals: dict[int, Rating] = defaultdict(Rating)
    for table in Table.objects.filter(series__tournament=tournament).prefetch_related("seats"):
        sheet = sheet_of(table, games_by_table.get(table.pk, []))
        result = evaluate_sheet(sheet)
        for name, rating in zip(sheet["players"], result.ratings, strict=True):
            totals[int(name)] = totals[int(name)] + rating
    return dict(totals)
