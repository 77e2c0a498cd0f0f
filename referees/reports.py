"""What the referees' board reports: a tournament's corrections, and their CSV rows.

The CSV is the audit trail to take away: every correction with who, when, why, the
dispute it settles, before -> after and the score change, oldest first.
"""

from __future__ import annotations

from collections.abc import Iterator

from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import get_language, pgettext_lazy

from tournaments.models import Tournament

from .models import Correction

#: The CSV's header row, in the reader's language: a file for people (the referees'
#: record), as the standings CSV; the workbook a tournament is rebuilt from keeps English.
CORRECTIONS_COLUMNS = (
    pgettext_lazy("corrections CSV", "Time"),
    pgettext_lazy("corrections CSV", "Series"),
    pgettext_lazy("corrections CSV", "Table"),
    pgettext_lazy("corrections CSV", "Deal"),
    pgettext_lazy("corrections CSV", "Kind"),
    pgettext_lazy("corrections CSV", "By"),
    pgettext_lazy("corrections CSV", "Reason"),
    pgettext_lazy("corrections CSV", "Dispute"),
    pgettext_lazy("corrections CSV", "Paragraph"),
    pgettext_lazy("corrections CSV", "Score before"),
    pgettext_lazy("corrections CSV", "Score after"),
    pgettext_lazy("corrections CSV", "Score change"),
    pgettext_lazy("corrections CSV", "Version before"),
    pgettext_lazy("corrections CSV", "Version after"),
    pgettext_lazy("corrections CSV", "Changes"),
)


def corrections_of(tournament: Tournament) -> QuerySet[Correction]:
    """The tournament's corrections, with what the board and the CSV show of each."""
    return Correction.objects.filter(game__table__series__tournament=tournament).select_related(
        "game__table__series", "made_by", "dispute"
    )


def when(moment) -> str:
    """A correction's time as the reader's spreadsheet reads a date and time: 02.12.2026
    21:05:09 in German, the ISO form (2026-12-02T21:05:09+01:00) otherwise."""
    local = timezone.localtime(moment)
    if (get_language() or "").startswith("de"):
        return local.strftime("%d.%m.%Y %H:%M:%S")
    return local.isoformat(timespec="seconds")


def corrections_rows(tournament: Tournament) -> Iterator[list[object]]:
    """The corrections CSV: the header, then one row per correction, oldest first."""
    yield [str(column) for column in CORRECTIONS_COLUMNS]
    for c in corrections_of(tournament).order_by("made_at", "pk"):
        yield [
            when(c.made_at),
            c.game.table.series.number,
            c.game.table.number,
            c.game.number,
            c.kind,
            c.made_by_name,
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
