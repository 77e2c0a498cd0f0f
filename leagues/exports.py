"""The season table and the match days as XLSX (two sheets) or each sheet as CSV.

Column names in the reader's language (English: as the tournament workbook's); league
points are numbers (7.5 for a half), dates are dates. CSV as the office writes it
everywhere: UTF-8 with a byte order mark, semicolons, and in German a decimal comma (7,5).
Both are written by :mod:`core.tabular`, so a group or team named like a formula stays text.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import BinaryIO, TextIO

from django.utils.translation import get_language, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from core.tabular import Sheet, write_csv, write_xlsx
from skat.league import as_number, rank_table

from .models import League
from .results import lot_key, season_tables

SEASON_COLUMNS = (
    _("Group"),
    _("Place"),
    _("Team"),
    _("Match days"),
    _("Game points"),
    pgettext_lazy("league points", "Won"),
    pgettext_lazy("league points", "Lost"),
    _("Binding"),
    _("Deducted"),
    _("Promotion / relegation"),
)
MATCH_DAY_COLUMNS = (
    _("Group"),
    _("Match day"),
    _("Date"),
    _("Host"),
    _("Place"),
    _("Team"),
    _("Series"),
    _("Series game points"),
    _("Series points"),
    _("Game points"),
    pgettext_lazy("league points", "Won"),
    pgettext_lazy("league points", "Lost"),
    _("Binding"),
)
ZONES = {"promotion": _("promotion"), "relegation": _("relegation")}


def season_rows(league: League) -> Iterator[tuple]:
    for season in season_tables(league.groups.select_related("league")):
        for place in season.table:
            r = place.result
            yield (
                season.group.name,
                place.place,
                r.team.name,
                r.matchdays,
                r.game_points,
                as_number(r.won),
                as_number(r.lost),
                "x" if season.binding else None,
                as_number(r.deducted) or None,
                ZONES.get(season.zones.get(place.place)),
            )


def match_day_rows(league: League) -> Iterator[tuple]:
    """One row per team and series of every match day, in the day's ranking order."""
    for season in season_tables(league.groups.select_related("league")):
        for day, result in season.days:
            ranked = rank_table(result.values(), tie_break=league.tie_break, lot_seed=league.lot_seed, lot_key=lot_key)
            for place in ranked:
                r = place.result
                for number, (points, won) in enumerate(zip(r.series_points, r.series_won, strict=True), start=1):
                    yield (
                        season.group.name,
                        day.number,
                        day.date,
                        day.host.name if day.host else None,
                        place.place,
                        r.team.name,
                        number,
                        points,
                        as_number(won),
                        r.game_points,
                        as_number(r.won),
                        as_number(r.lost),
                        "x" if day.binding else None,
                    )


SHEETS = {"Season": (SEASON_COLUMNS, season_rows), "Match days": (MATCH_DAY_COLUMNS, match_day_rows)}


def league_season_xlsx(league: League, out: BinaryIO) -> None:
    """Both sheets as one workbook, written to a binary stream."""
    write_xlsx(out, (Sheet(title, columns, rows(league)) for title, (columns, rows) in SHEETS.items()))


def league_season_csv(league: League, sheet: str, out: TextIO) -> None:
    """One sheet (a key of :data:`SHEETS`) as CSV, written to a text stream, for readers of
    the active language (German: a decimal comma)."""
    columns, rows = SHEETS[sheet]
    write_csv(out, columns, rows(league), language=get_language())
