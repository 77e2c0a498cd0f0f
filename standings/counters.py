"""The tournament's results counters as a serving process last read them, and reading
only those that moved since.

The database counts every change per table and on the tournament's own row
(:class:`scoring.models.ResultsMark`, kept by the triggers of scoring.triggers): at
9,000 players some 4,500 rows, where a deal moves one. :class:`Counters` reads them all
once, then per request those changed from :data:`OVERLAP` before the latest time it
saw (a few rows) with the sum of all versions in the same statement. A counter only
grows, so when that sum equals the remembered counters' with the read ones put in, no
other counter moved; otherwise (a change that carries an older time, a counter gone or
rolled back) it reads them all again. tests/standings/test_tally.py holds both ways.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from django.db import connections
from django.db.models import CharField
from django.db.models.functions import Cast

from scoring.models import ResultsMark
from tournaments.models import Tournament

from .places import plain_rows

#: How long before the latest counter seen the counters are read again: a counter's time
#: is its statement's (SQLite) or its transaction's start (PostgreSQL), so one committed
#: a little later may carry an earlier time. One later still is caught by the sum.
OVERLAP = timedelta(seconds=2)

#: {scope: (version, changed_at as text)}; scope 0 is the tournament's own counter.
Marks = dict[int, tuple]


class Counters:
    """Every counter of one tournament as last read, the sum of their versions and the
    latest time among them."""

    def __init__(self) -> None:
        self.marks: Marks = {}
        self.total = 0
        self.latest = ""

    def read_all(self, tournament: Tournament) -> Marks:
        """Every counter (one query over all of them); all are new."""
        marks = all_marks(tournament)
        self.marks = marks
        self.total = sum(mark[0] for mark in marks.values())
        self.latest = max((mark[1] for mark in marks.values() if mark[1]), default="")
        return marks

    def read_moved(self, tournament: Tournament) -> Marks | None:
        """The counters that moved since the last read, taken into :attr:`marks`; None when
        that cannot be told (then :meth:`read_all`)."""
        if not self.latest:
            return None
        try:
            latest = datetime.fromisoformat(self.latest)
        except ValueError:
            return None
        since = (latest if latest.tzinfo else latest.replace(tzinfo=UTC)) - OVERLAP
        fresh, total = marks_since(tournament, since)
        if total is None:
            return None
        marks = self.marks
        moved = {scope: mark for scope, mark in fresh.items() if marks.get(scope) != mark}
        added = sum(mark[0] - marks.get(scope, (0,))[0] for scope, mark in moved.items())
        if self.total + added != total:
            return None
        self.marks = marks | moved
        self.total = total
        self.latest = max([self.latest, *(mark[1] for mark in moved.values() if mark[1])])
        return moved


def all_marks(tournament: Tournament) -> Marks:
    """The tournament's counters: one query over its few thousand rows."""
    # The time as text: compared, never computed with (a datetime parsed per row cost more than the query).
    query = ResultsMark.objects.filter(tournament=tournament).order_by()
    rows = plain_rows(query.values_list("scope", "version", Cast("changed_at", CharField())))
    return {scope: (version, changed_at) for scope, version, changed_at in rows}


def marks_since(tournament: Tournament, since: datetime) -> tuple[Marks, int | None]:
    """The counters changed at ``since`` or later (and the tournament's own) as
    :func:`all_marks` gives them, and the sum of all the tournament's versions, in one
    statement (one snapshot); the sum None when no row came back. Plain SQL: the ORM
    took longer to write it than the database to answer."""
    connection = connections[ResultsMark.objects.db]
    table = connection.ops.quote_name(ResultsMark._meta.db_table)
    sql = (
        f"SELECT scope, version, CAST(changed_at AS VARCHAR), "
        f"(SELECT SUM(version) FROM {table} WHERE tournament_id = %s) FROM {table} "
        "WHERE tournament_id = %s AND (changed_at >= %s OR scope = 0)"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [tournament.pk, tournament.pk, connection.ops.adapt_datetimefield_value(since)])
        rows = cursor.fetchall()
    return {scope: (version, changed_at) for scope, version, changed_at, _total in rows}, (
        rows[0][3] if rows else None
    )
