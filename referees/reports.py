"""What the referees' board reports: a tournament's corrections, and their CSV rows.

The CSV is the audit trail to take away: every correction with who, when, why, the
dispute it settles, before -> after and the score change, oldest first.
"""

from __future__ import annotations

from collections.abc import Iterator

from django.db.models import QuerySet
from django.utils import timezone

from tournaments.models import Tournament

from .models import Correction

#: The CSV's header row.
CORRECTIONS_COLUMNS: tuple[str, ...] = (
    "time",
    "series",
    "table",
    "deal",
    "kind",
    "by",
    "reason",
    "dispute",
    "paragraph",
    "score_before",
    "score_after",
    "score_change",
    "version_before",
    "version_after",
    "changes",
)


def corrections_of(tournament: Tournament) -> QuerySet[Correction]:
    """The tournament's corrections, with what the board and the CSV show of each."""
    return Correction.objects.filter(game__table__series__tournament=tournament).select_related(
        "game__table__series", "made_by", "dispute"
    )


def corrections_rows(tournament: Tournament) -> Iterator[list[object]]:
    """The corrections CSV: the header, then one row per correction, oldest first."""
    yield list(CORRECTIONS_COLUMNS)
    for c in corrections_of(tournament).order_by("made_at", "pk"):
        yield [
            timezone.localtime(c.made_at).isoformat(timespec="seconds"),
            c.game.table.series.number,
            c.game.table.number,
            c.game.number,
            c.kind,
            c.made_by.get_username(),
            c.reason,
            c.dispute_id or "",
            c.dispute.paragraph if c.dispute else "",
            c.score_before,
            c.score_after,
            c.score_change,
            c.version_before,
            c.version_after,
            "; ".join(f"{name}: {_csv_value(old)} -> {_csv_value(new)}" for name, old, new in c.changed),
        ]


def _csv_value(value: object) -> str:
    return "" if value is None else str(value).lower() if isinstance(value, bool) else str(value)
