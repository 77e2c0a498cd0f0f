"""The one place a deal is written: valued by the engine, under its table's lock.

:meth:`ScoresheetLine.save <scoring.models.ScoresheetLine.save>` values every deal it stores, so no ``save()``
stores a row the engine did not value. What bypasses ``save()`` (an insert in bulk, the
versioned update of a correction at the table) is here, and values each row first.
Every write path of the office calls these: the phone and the office grid
(:mod:`scoring.entry`), the referees' corrections and added deals
(:mod:`referees.corrections`), the paper sheet and the tournament file (:mod:`transfer`),
the demo and the bench (:mod:`office.demo`, :mod:`perf`). The triggers
(:mod:`scoring.triggers`) then keep the seat totals, whatever wrote the row.

``tests/test_one_valuing.py`` fails for a module that values a deal or writes a
deal's derived fields any other way.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager

from django.db import connections, transaction
from django.db.models import F

from skat.rules import Outcome
from tournaments.models import Table

from .models import ScoresheetLine

#: What a deal's row holds of the deal: what was entered and what the engine derived.
STORED_FIELDS = ScoresheetLine.VALUED_FIELDS


def value(deal: ScoresheetLine, table_size: int) -> Outcome | None:
    """The engine's valuation of ``deal``, in memory only: what a form shows before anything
    is stored (the preview, the refusal at its field) and what an import compares a
    written value with. Raises :class:`skat.rules.RuleError` (field and paragraph)."""
    return deal.apply_rules(table_size)


def _lock(table_ids: Iterable[int]) -> None:
    """The tables' locks until the transaction ends, in key order (two writers of the same
    tables never wait for each other crosswise); one query (Table.objects.lock)."""
    ids = sorted(set(table_ids))
    if len(ids) == 1:
        Table.objects.lock(ids[0])
    elif ids and connections[Table.objects.db].features.has_select_for_update:
        list(Table.objects.select_for_update().filter(pk__in=ids).order_by("pk").values_list("pk", flat=True))


@contextmanager
def _locked(table_ids: Iterable[int], locked: bool) -> Iterator[None]:
    """A transaction holding the tables' locks. ``locked``: the caller's transaction holds
    them already (the phone's entry checks the deal's order under its lock), so neither
    the lock is asked for again nor a savepoint made (two queries more on every deal)."""
    if locked:
        if not transaction.get_connection().in_atomic_block:
            raise transaction.TransactionManagementError("locked=True: take the table's lock in a transaction first")
        yield
        return
    with transaction.atomic():
        _lock(table_ids)
        yield


def save_deal(deal: ScoresheetLine, *, locked: bool = False) -> ScoresheetLine:
    """Value ``deal`` with the engine and store it (a new row or its own), under its table's lock.

    ``locked``: the caller took the table's lock in its transaction already. Raises
    :class:`skat.rules.RuleError` and stores nothing when the engine refuses the deal.
    """
    with _locked([deal.table_id], locked):
        deal.save()  # ScoresheetLine.save values it
    return deal


def _sizes(deals: Sequence[ScoresheetLine]) -> dict[int, int]:
    """Each deal's table size: from the table a deal holds, the others' in one query."""
    sizes = {deal.table_id: deal.table.size for deal in deals if type(deal).table.is_cached(deal)}
    missing = {deal.table_id for deal in deals} - sizes.keys()
    if missing:
        sizes.update(Table.objects.filter(pk__in=missing).values_list("pk", "size"))
    return sizes


def create_deals(
    deals: Sequence[ScoresheetLine], *, batch_size: int = 2000, locked: bool = False
) -> list[ScoresheetLine]:
    """Value every deal with the engine, then insert them in bulk, under their tables' locks.

    ``bulk_create`` calls no ``save()``: the rows are valued here, each before the insert,
    and the triggers keep the seat totals as for a single row. All deals or none: a
    :class:`skat.rules.RuleError` of any stores nothing. ``locked`` as in :func:`save_deal`.
    """
    if not deals:
        return []
    sizes = _sizes(deals)
    with _locked(sizes, locked):
        for deal in deals:
            deal.apply_rules(sizes[deal.table_id])
        by_model: dict[type[ScoresheetLine], list[ScoresheetLine]] = {}
        for deal in deals:
            by_model.setdefault(type(deal), []).append(deal)
        for model, rows in by_model.items():
            model.objects.bulk_create(rows, batch_size=batch_size)
    return list(deals)


def rewrite_deal(deal: ScoresheetLine, *, version: int, entered_by: str, locked: bool = False) -> bool:
    """Value ``deal`` and write it over its stored row, if that row is still at ``version``.

    One statement compares the version and writes (a correction at the table, 5.5.3): no
    second writer slips in between. False when the row moved on meanwhile (nothing
    written); ``locked`` as in :func:`save_deal`.
    """
    with _locked([deal.table_id], locked):
        deal.apply_rules(deal.table.size)
        # The deal's own model's: a game's irregularity too (4.1.4), which its score rests on.
        values = {name: getattr(deal, name) for name in type(deal).VALUED_FIELDS}
        return bool(
            type(deal)
            .objects.filter(pk=deal.pk, version=version)
            .update(**values, entered_by=entered_by[:80], version=F("version") + 1)
        )
