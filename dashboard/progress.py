"""How far a series' tables are: deals entered, rounds, behind the field, sign-off, lists.

What the dashboard's tiles, the series page and finishing a series read; a fixed
number of queries whatever the size of the series.
"""

from __future__ import annotations

import hashlib
import statistics
from dataclasses import dataclass

from django.db import transaction
from django.db.models import Count
from django.utils import timezone

from scoring.lists import differing_deals
from scoring.models import Game
from signoff.confirm import confirmable, locked_seats_of
from signoff.models import ListsAccepted, PinFailure
from tournaments.models import Series

from .signals import series_finished


@dataclass(slots=True)
class TableProgress:
    """Where one table of a series stands: what a tile, a row of the series page and
    the finish check show. ``players``: the seated players' names, in seat order, once
    loaded for the page shown (dashboard.table_list.with_seats)."""

    pk: int
    number: int
    size: int
    entered: int
    deal_count: int
    confirmed: bool
    lists_differ: list[int]
    finished: bool = False
    behind: bool = False
    awaiting: bool = False
    percent: int = 0
    rounds: int = 0
    round: int = 0
    players: tuple[str, ...] = ()
    #: Seats whose PIN entry is locked now by wrong PINs (5.5.3): the director or a
    #: referee lifts the lock on the referees' table page.
    locked_seats: tuple[int, ...] = ()


def table_progress(series: Series) -> list[TableProgress]:
    """The series' tables with the deals entered, the sign-off and where their second
    lists differ: three queries of a few values per table, any size (a 750-table
    series builds no model objects; the pages load only their page's seats)."""
    rows = series.tables.order_by("number").values_list("pk", "number", "size", "signoff")
    # Deals entered per table: counted on the games' (table) index alone, not by joining
    # every game to its table (a 750-table series has 36,000 games).
    entered = dict(
        Game.objects.filter(table_id__in=series.tables.values("pk"))
        .order_by()
        .values_list("table_id")
        .annotate(n=Count("table_id"))
    )
    deals = {3: series.tournament.deals_per_table(3), 4: series.tournament.deals_per_table(4)}
    # Where the table's second list differs from its sheet (scoring.lists): one query.
    differing = unsettled(differing_deals(series.tables.all()))
    tables = [
        TableProgress(
            pk=pk,
            number=number,
            size=size,
            entered=entered.get(pk, 0),
            deal_count=deals[size],
            # Only a confirmed sheet is final (5.5.3).
            confirmed=signoff is not None,
            lists_differ=differing.get(pk, []),
        )
        for pk, number, size, signoff in rows
    ]
    fractions = [t.entered / t.deal_count for t in tables]
    median = statistics.median(fractions) if fractions else 0
    finished_series = series.status == Series.Status.FINISHED
    for table, fraction in zip(tables, fractions, strict=True):
        table.finished = table.entered >= table.deal_count
        # Behind: more than one round short of the median table.
        table.behind = not table.finished and (median - fraction) * table.deal_count > table.size
        table.percent = round(100 * fraction)
        # 3.2.1: a round is one deal by each player; the tile shows the round being played.
        table.rounds = table.deal_count // table.size
        table.round = min(table.entered // table.size + 1, table.rounds)
        # A finished sheet awaits the players' confirmation.
        table.awaiting = not table.confirmed and confirmable(
            entered=table.entered, deals=table.deal_count, series_finished=finished_series
        )
    # Seats locked by wrong PINs (signoff.confirm), where a sheet awaits its PINs: one query.
    if any(table.awaiting for table in tables):
        locked = locked_seats_of(PinFailure.objects.filter(table__series=series), timezone.now())
        for table in tables:
            table.locked_seats = tuple(sorted(locked.get(table.pk, {}))) if table.awaiting else ()
    return tables


def unsettled(differing: dict[int, list[int]]) -> dict[int, list[int]]:
    """``differing`` ({table id: deal numbers}) without the tables where a referee decided
    that the sheet stands over all of those deals (``ListsAccepted``, the rule of
    ``signoff.confirm.undecided``: a decision holds while each deal it decided stands as
    it stood then, its pk, version and void mark; one kept before those were recorded,
    for the whole sheet as it stood): such a difference is settled and no longer flagged;
    the sheet still awaits the players' signatures. Two queries for the tables that
    differ, none when nothing differs."""
    if not differing:
        return differing
    decided: dict[int, list[tuple[str, set[int], dict]]] = {}
    accepted = ListsAccepted.objects.filter(table_id__in=list(differing))
    for table_id, print_, deals, versions in accepted.values_list("table_id", "fingerprint", "deals", "deal_versions"):
        decided.setdefault(table_id, []).append((print_, set(deals), versions or {}))
    if not decided:
        return differing
    current, deals_now = _sheets_now(list(decided))

    def holds(table_id: int, print_: str, versions: dict) -> bool:
        if versions:
            now = deals_now.get(table_id, {})
            return all(now.get(number) == list(version) for number, version in versions.items())
        return print_ == current.get(table_id)

    return {
        table_id: deals
        for table_id, deals in differing.items()
        if not any(
            set(deals) <= accepted_deals and holds(table_id, print_, versions)
            for print_, accepted_deals, versions in decided.get(table_id, [])
        )
    }


def _sheets_now(table_ids: list[int]) -> tuple[dict[int, str], dict[int, dict[str, list]]]:
    """({table id: its sheet's fingerprint}, {table id: {deal number: [pk, version,
    voided]}}) in one query: the text ``signoff.confirm.fingerprint`` hashes for one table
    (a test holds the two equal) and what ``signoff.confirm`` records of a decided deal."""
    parts: dict[int, list[str]] = {pk: [] for pk in table_ids}
    deals: dict[int, dict[str, list]] = {pk: {} for pk in table_ids}
    rows = (
        Game.objects.filter(table_id__in=table_ids)
        .order_by("table_id", "number")
        .values_list("table_id", "pk", "number", "version", "voided")
    )
    for table_id, pk, number, version, voided in rows:
        parts[table_id].append(f"{pk}:{number}:{version}:{int(voided)}")
        deals[table_id][str(number)] = [pk, version, bool(voided)]
    prints = {pk: hashlib.sha256(";".join(text).encode()).hexdigest() for pk, text in parts.items()}
    return prints, deals


class FinishNeedsConfirmation(Exception):
    """Finishing the series would close tables that are not final yet: deals missing,
    sheets not confirmed (5.5.3), or a second list that differs from the sheet."""

    def __init__(self, open_tables: list[int], unconfirmed: list[int], lists_differ: list[int]) -> None:
        self.open_tables = open_tables
        self.unconfirmed = unconfirmed
        self.lists_differ = lists_differ
        super().__init__(f"open {open_tables}, unconfirmed {unconfirmed}, lists differ {lists_differ}")


@dataclass(frozen=True, slots=True)
class FinishCheck:
    """The series' tables that are not final yet, by why (table numbers)."""

    open_tables: list[int]
    unconfirmed: list[int]
    lists_differ: list[int]

    def __bool__(self) -> bool:
        return bool(self.open_tables or self.unconfirmed or self.lists_differ)


def finish_check(tables: list[TableProgress]) -> FinishCheck:
    """What finishing would close although it is not final, from :func:`table_progress`'s tables."""
    return FinishCheck(
        open_tables=[t.number for t in tables if not t.finished],
        # Complete but not confirmed: the players have not signed it yet.
        unconfirmed=[t.number for t in tables if t.finished and not t.confirmed],
        lists_differ=[t.number for t in tables if t.lists_differ],
    )


def finish_series(series: Series, *, force: bool = False) -> None:
    """Finish the series: its table links close and its sheets await the players' confirmation
    (5.5.3). Only confirmed sheets are final: tables with deals missing, sheets not
    confirmed or a differing second list need the director's ``force``, after he has
    seen which tables they are."""
    with transaction.atomic():
        series = Series.objects.select_for_update().get(pk=series.pk)
        check = finish_check(table_progress(series))
        if check and not force:
            raise FinishNeedsConfirmation(check.open_tables, check.unconfirmed, check.lists_differ)
        Series.objects.filter(pk=series.pk).update(status=Series.Status.FINISHED)
        # After the commit: a backup made then holds the finished series (core.backups, connected in office.apps).
        transaction.on_commit(lambda: series_finished.send(sender=Series, series=series))
