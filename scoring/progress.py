"""How far a series' tables are: deals entered, rounds, behind the field, sign-off, lists.

What the dashboard's tiles, the series page and finishing a series read; a fixed
number of queries whatever the size of the series.
"""

from __future__ import annotations

import statistics

from django.db import transaction
from django.db.models import Count, Prefetch

from tournaments.models import Seat, Series, Table

from .lists import differing_deals
from .signoff import confirmable


def table_progress(series: Series) -> list[Table]:
    """The series' tables with seats and games entered, and where their second lists
    differ: four queries, any size."""
    tables = list(
        series.tables.annotate(entered=Count("games"))
        .select_related("signoff")  # the sheet's sign-off
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("number")))
        .order_by("number")
    )
    deals = {3: series.tournament.deals_per_table(3), 4: series.tournament.deals_per_table(4)}
    # Where the table's second list differs from its sheet (scoring.lists): one query.
    differing = differing_deals(series.tables.all())
    fractions = [t.entered / deals[t.size] for t in tables]
    median = statistics.median(fractions) if fractions else 0
    finished_series = series.status == Series.Status.FINISHED
    for table, fraction in zip(tables, fractions, strict=True):
        table.deal_count = deals[table.size]
        table.finished = table.entered >= table.deal_count
        # Behind: more than one round short of the median table.
        table.behind = not table.finished and (median - fraction) * table.deal_count > table.size
        table.percent = round(100 * fraction)
        # 3.2.1: a round is one deal by each player; the tile shows the round being played.
        table.rounds = table.deal_count // table.size
        table.round = min(table.entered // table.size + 1, table.rounds)
        # Only a confirmed sheet is final (5.5.3); a finished one awaits the players' confirmation.
        table.lists_differ = differing.get(table.pk, [])
        table.confirmed = getattr(table, "signoff", None) is not None
        table.awaiting = not table.confirmed and confirmable(
            entered=table.entered, deals=table.deal_count, series_finished=finished_series
        )
    return tables


def play_started(series: Series) -> bool:
    """Whether a deal of the series is entered on its sheets (fills tournaments.hooks.play_started)."""
    return series.tables.filter(games__isnull=False).exists()


class FinishNeedsConfirmation(Exception):
    """Finishing the series would close tables that have not entered all their deals."""

    def __init__(self, open_tables: list[int]) -> None:
        self.open_tables = open_tables
        super().__init__(f"tables {open_tables} have not entered all deals")


def finish_series(series: Series, *, force: bool = False) -> None:
    """Finish the series: its table links close and its sheets await the players' confirmation
    (5.5.3). Tables that have not entered all deals need the director's ``force``."""
    with transaction.atomic():
        series = Series.objects.select_for_update().get(pk=series.pk)
        open_tables = [t.number for t in table_progress(series) if not t.finished]
        if open_tables and not force:
            raise FinishNeedsConfirmation(open_tables)
        Series.objects.filter(pk=series.pk).update(status=Series.Status.FINISHED)
