"""What a scoresheet (5.5.2) prints, prepared from the database: no drawing here.

:func:`sheet_inputs` turns tables loaded with their series, tournament and seats (and,
for a filled sheet, their stored games) into plain :class:`SheetInput` values that
:class:`printing.documents.scoresheet.ScoresheetWriter` draws.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class SeatInfo:
    number: int
    name: str
    club: str


@dataclass(frozen=True, slots=True)
class SheetInput:
    """What one scoresheet prints; built from the database by :func:`sheet_inputs`."""

    tournament: str
    date: str
    venue: str
    series: int
    table: int
    size: int
    deals: int
    seats: tuple[SeatInfo, ...]
    games: tuple | None  # stored Game rows in deal order; None for the blank form

    def texts(self) -> list[str]:
        return [self.tournament, self.venue] + [s.name for s in self.seats] + [s.club for s in self.seats]


def sheet_inputs(tables: Sequence, games_by_table: dict[int, list] | None) -> list[SheetInput]:
    """SheetInputs for tables loaded with their series, tournament and seats."""
    inputs = []
    for table in tables:
        series = table.series
        tournament = series.tournament
        seats = tuple(
            SeatInfo(s.number, s.player.name, s.player.club.name if s.player.club_id else "")
            for s in sorted(table.seats.all(), key=lambda s: s.number)
        )
        games = None if games_by_table is None else tuple(games_by_table.get(table.pk, ()))
        inputs.append(
            SheetInput(
                tournament=tournament.name,
                date=_date(tournament.date),
                venue=tournament.venue,
                series=series.number,
                table=table.number,
                size=table.size,
                deals=tournament.deals_per_table(table.size),
                seats=seats,
                games=games,
            )
        )
    return inputs


def _date(value) -> str:
    from django.utils.formats import date_format

    return date_format(value, "SHORT_DATE_FORMAT")
