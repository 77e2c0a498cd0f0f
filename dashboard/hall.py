"""The hall check before the doors open: each table's connection to the office, on a map.

The most common failure of electronic scoring is the hall's Wi-Fi, found out when the
first series should start. So before play a phone at each table (a helper scanning the
table cards during set-up, or anyone on demand) sends a few round trips to the office
(tablelink.hall_views: 20 over 10 seconds by default, settings ``HALL_CHECK_*``) and
reports what it measured; the dashboard shows every table as not checked, good, slow or
losing round trips, so the access point can be moved before the first deal.

The check is for set-up only: once a deal is entered at a table, its phones neither
ping nor report (the office refuses both), and the dashboard shows the map in full
only while no deal of the series is entered (a line of counts after that).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import TextChoices
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring.models import Game
from tournaments.models import Series, Table

from .models import HallCheck

#: A table is slow when 95 % of its answered round trips do not come back within this
#: many milliseconds (the issue's p95 > 500 ms). Entering a deal is one round trip and its
#: live value another few while the form is filled: at half a second each, a phone at
#: that table waits visibly on every tap, and a full hall on the same access point only
#: gets slower once 200 phones enter at once.
SLOW_P95_MS = 500
#: A table loses round trips when any of them went unanswered: on an empty hall a lost
#: round trip is the access point out of reach (or overloaded), and a deal sent then waits
#: on the phone until it gets through.
LOST_AT = 1
#: The bounds of a report: a check sends 5-60 round trips, and a round trip longer than a
#: minute is not one (the phone gives up long before: settings HALL_CHECK_TIMEOUT_MS).
MIN_PINGS, MAX_PINGS = 5, 60
MAX_ROUND_TRIP_MS = 60_000
#: Reports of one table closer than this are refused (two phones of a table, a report sent
#: twice): one check holds for a while, and a phone cannot fill the office's database.
REPORT_GAP = timedelta(seconds=5)


class State(TextChoices):
    """A table's state on the hall map; each has a symbol, so the map does not rely on colour."""

    NOT_CHECKED = "not-checked", gettext_lazy("not checked")
    GOOD = "good", gettext_lazy("good")
    SLOW = "slow", gettext_lazy("slow")
    LOST = "lost", gettext_lazy("lost round trips")

    @property
    def symbol(self) -> str:
        return {"not-checked": "?", "good": "✓", "slow": "◔", "lost": "✕"}[self.value]


def classify(check: HallCheck | None) -> State:
    """Lost round trips first (a deal may not get through at all), then slow, else good."""
    if check is None:
        return State.NOT_CHECKED
    if check.sent - check.received >= LOST_AT:
        return State.LOST
    if check.p95_ms is not None and check.p95_ms > SLOW_P95_MS:
        return State.SLOW
    return State.GOOD


class Refused(Exception):
    """A ping or report the office does not take: the message says why, ``status`` is the answer's."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


@dataclass(frozen=True, slots=True)
class Report:
    """What a phone measured: round trips sent and answered, and the answered ones' times (ms)."""

    sent: int
    received: int
    p50: int | None
    p95: int | None
    max: int | None


def _number(data: Mapping[str, str], field: str, low: int, high: int, *, required: bool = True) -> int | None:
    raw = str(data.get(field, "") or "").strip()
    if not raw and not required:
        return None
    # Digits only: int() would take "+5", " 5" and "5_0" too.
    value = int(raw) if raw.isascii() and raw.isdigit() and len(raw) <= 6 else None
    if value is None or not low <= value <= high:
        raise Refused(
            _("%(field)s: a whole number from %(low)s to %(high)s, not “%(value)s”.")
            % {"field": field, "low": low, "high": high, "value": raw[:20]},
            422,
        )
    return value


def parse_report(data: Mapping[str, str], *, cut_short: bool = False) -> Report:
    """The report posted by a phone, or :class:`Refused` naming the field and its rule.
    A check ``cut_short`` by the table's first deal reports the round trips it had (1 or more)."""
    sent = _number(data, "sent", 1 if cut_short else MIN_PINGS, MAX_PINGS)
    assert sent is not None
    received = _number(data, "received", 0, sent)
    times = {field: _number(data, field, 0, MAX_ROUND_TRIP_MS, required=False) for field in ("p50", "p95", "max")}
    if received == 0:
        if any(value is not None for value in times.values()):
            raise Refused(_("p50, p95, max: leave them empty when no round trip was answered."), 422)
    else:
        for field, value in times.items():
            if value is None:
                raise Refused(_("%(field)s: required when a round trip was answered.") % {"field": field}, 422)
        if not times["p50"] <= times["p95"] <= times["max"]:
            raise Refused(
                _("p50, p95, max: the median, the 95th percentile and the slowest in order (p50 ≤ p95 ≤ max)."), 422
            )
    return Report(sent=sent, received=received, **times)


def table_has_deals(table: Table) -> bool:
    """A deal is entered at the table: the check adds nothing while play is on."""
    return Game.objects.filter(table=table).exists()


def refuse_after_set_up(table: Table) -> None:
    """:class:`Refused` once the series is finished or a deal is entered at the table."""
    if table.series.status == Series.Status.FINISHED:
        raise Refused(_("This series is finished: there is nothing to check."), 410)
    if table_has_deals(table):
        raise Refused(_("Play has started at this table: the connection check runs only before the first deal."), 409)


def latest(table: Table) -> HallCheck | None:
    """The table's latest check (by its number in the tournament's hall), one query."""
    return HallCheck.objects.filter(tournament_id=table.series.tournament_id, table_number=table.number).first()


def record(table: Table, report: Report, now: datetime | None = None, *, cut_short: bool = False) -> HallCheck:
    """Keep ``report`` as the table's latest check; :class:`Refused` after set-up or too soon.

    A check ``cut_short`` by the table's first deal (the phone stops it then) is kept after
    that deal too, once, for a table never checked: what it measured beats "not checked"
    on the dashboard; a table checked before keeps its check."""
    now = now or timezone.now()
    if cut_short and table.series.status != Series.Status.FINISHED:
        if latest(table) is not None and table_has_deals(table):
            raise Refused(
                _("Play has started at this table: the connection check runs only before the first deal."), 409
            )
    else:
        refuse_after_set_up(table)
    key = {"tournament_id": table.series.tournament_id, "table_number": table.number}
    with transaction.atomic():
        previous = HallCheck.objects.select_for_update().filter(**key).first()
        if previous is not None and now - previous.checked_at < REPORT_GAP:
            raise Refused(
                _("A check of this table came in just now: wait %(seconds)s seconds and check again.")
                % {"seconds": int(REPORT_GAP.total_seconds())},
                429,
            )
        values = {
            "checked_at": now,
            "sent": report.sent,
            "received": report.received,
            "p50_ms": report.p50,
            "p95_ms": report.p95,
            "max_ms": report.max,
        }
        check, _created = HallCheck.objects.update_or_create(**key, defaults=values)
    return check


def verdict(check: HallCheck) -> str:
    """What the phone says after its check (the dashboard's hall map shows the same state)."""
    state = classify(check)
    if state == State.LOST:
        return _(
            "Round trips lost: %(lost)s of %(sent)s were not answered. Tell the director: "
            "the access point may need moving."
        ) % {"lost": check.lost, "sent": check.sent}
    if state == State.SLOW:
        return _(
            "Slow connection: 95 %% of the answers took up to %(p95)s ms (more than %(limit)s ms). "
            "Tell the director: the access point may need moving."
        ) % {"p95": check.p95_ms, "limit": SLOW_P95_MS}
    return _("Good connection: %(received)s of %(sent)s answered, 95 %% within %(p95)s ms.") % {
        "received": check.received,
        "sent": check.sent,
        "p95": check.p95_ms,
    }


@dataclass(frozen=True, slots=True)
class Cell:
    """One table on the hall map."""

    number: int
    state: State
    check: HallCheck | None


@dataclass(frozen=True, slots=True)
class StateCount:
    state: State
    count: int
    #: The tables in this state (for the ones to look at: slow, lost).
    tables: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class HallMap:
    cells: list[Cell]
    counts: list[StateCount]
    last: datetime | None

    @property
    def problems(self) -> list[StateCount]:
        return [c for c in self.counts if c.state in (State.SLOW, State.LOST) and c.count]


def hall_map(tournament_id: int, numbers: Iterable[int]) -> HallMap:
    """The tables ``numbers`` (a series' tables) with their latest checks: one query."""
    checks = {c.table_number: c for c in HallCheck.objects.filter(tournament_id=tournament_id)}
    cells = [Cell(n, classify(checks.get(n)), checks.get(n)) for n in sorted(numbers)]
    counts = []
    for state in (State.GOOD, State.SLOW, State.LOST, State.NOT_CHECKED):
        tables = tuple(c.number for c in cells if c.state == state)
        counts.append(StateCount(state, len(tables), tables))
    times = [c.check.checked_at for c in cells if c.check is not None]
    return HallMap(cells=cells, counts=counts, last=max(times) if times else None)


@dataclass(frozen=True, slots=True)
class Hall:
    """The dashboard's hall check of the current series: the map in full during set-up
    (no deal of the series entered yet), only its counts once play is on."""

    map: HallMap
    setup: bool


def series_hall(series: Series | None, numbers: list[int] | None = None, started: bool | None = None) -> Hall | None:
    """The hall of ``series`` (None before a draw, after the series, or without tables);
    ``numbers`` and ``started`` when the caller knows them already (the dashboard's table
    progress), else two queries more."""
    if series is None or series.status == Series.Status.FINISHED:
        return None
    if numbers is None:
        numbers = list(series.tables.values_list("number", flat=True))
    if not numbers:
        return None
    if started is None:
        started = Game.objects.filter(table__series=series).exists()
    return Hall(hall_map(series.tournament_id, numbers), setup=not started)
