"""Which sheets are signed off (5.5.3), as other apps' queries ask it: scoring through its
hook (``scoring.hooks.sheet_signed``: the table link's lock, the second list's differences),
the draw and the dashboard directly (:func:`unconfirmed_tables`)."""

from __future__ import annotations

from django.db.models import Exists, OuterRef

from tournaments.models import Table

from .models import SignOff


def sheet_signed(table: str = "pk") -> Exists:
    """True where the sheet of the table at ``table`` (the path from the query's rows: "pk"
    on tables, "table" on deals) is signed off; fills ``scoring.hooks.sheet_signed``."""
    return Exists(SignOff.objects.filter(table=OuterRef(table)))


def unconfirmed_tables(tournament) -> list[tuple[int, int]]:
    """(series, table) of every drawn table whose sheet is not confirmed, in order: a
    seeded draw on them rests on provisional results (draw.series asks)."""
    return list(
        Table.objects.filter(series__tournament=tournament, signoff__isnull=True)
        .order_by("series__number", "number")
        .values_list("series__number", "number")
    )
