"""Queries of every deal entered, compiled once: the ORM's SQL kept and run with new values.

The phone's entry asks the same few questions on every deal (the table under its lock,
the list's running totals, whether a second list is kept); what differs is only their
values: the table, the client id. Django builds and compiles a query anew at each call,
and for these (subqueries, annotations) that cost more than the database's answer: the
compiling of the entry's check under the lock alone about 2-4 ms of each deal on the
reference VM. :class:`Compiled` builds the queryset once per database vendor with
placeholder values, keeps its SQL, and runs it with each call's values in their places.

The SQL is the ORM's own (the same statement as before, same dialect); only rows of
plain values come back (``values_list`` queries), converted as the ORM would for the
types used here. A query whose placeholders cannot be found in its parameters exactly
once each is refused when it is first built, never run wrong.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable, Sequence
from typing import Any

from django.db import connections
from django.db.models import QuerySet


class Compiled:
    """A ``values_list`` query compiled once per vendor and run with new values.

    ``build(*values)`` makes the queryset; ``placeholders`` are values of the same types,
    none of which occurs otherwise in its parameters, each within its field's range (a
    negative pk is; a negative number on a positive field makes Django compile no query);
    ``prepare(*values)`` gives each value as the database gets it (a UUID's hex string on
    SQLite, say), in order.
    ``variant()`` names what else the SQL rests on (a hook filled by a higher app): the
    query is compiled again when it changes. ``orm_converters``: each column's value is
    converted from the database's as the ORM converts it (dates, booleans, JSON on
    SQLite), for queries of whole rows of models (before ``convert``).
    """

    def __init__(
        self,
        build: Callable[..., QuerySet],
        placeholders: Sequence[Any],
        prepare: Callable[..., Sequence[Any]],
        *,
        convert: Callable[[tuple], tuple] = tuple,
        variant: Callable[[], Hashable] = lambda: None,
        orm_converters: bool = False,
    ) -> None:
        self.build = build
        self.placeholders = tuple(placeholders)
        self.prepare = prepare
        self.convert = convert
        self.variant = variant
        self.orm_converters = orm_converters
        self._sql: dict[tuple, tuple[str, list, tuple[int, ...], list]] = {}
        self._lock = threading.Lock()

    def _compiled(self, alias: str) -> tuple[str, list, tuple[int, ...], list]:
        vendor = (connections[alias].vendor, self.variant())
        found = self._sql.get(vendor)
        if found is None:
            with self._lock:
                queryset = self.build(*self.placeholders)
                compiler = queryset.query.get_compiler(using=alias)
                sql, params = compiler.as_sql()
                # (position, converters, column) as the ORM applies them to each row.
                converters = (
                    [(at, *found) for at, found in compiler.get_converters([s[0] for s in compiler.select]).items()]
                    if self.orm_converters
                    else []
                )
                params = list(params)
                marks = self.prepare(*self.placeholders, connection=connections[alias])
                places = []
                for mark in marks:
                    at = [i for i, param in enumerate(params) if param == mark]
                    if len(at) != 1:
                        raise ValueError(f"placeholder {mark!r} found {len(at)} times in {params!r}")
                    places.append(at[0])
                found = self._sql[vendor] = (sql, params, tuple(places), converters)
        return found

    def rows(self, *values: Any, using: str = "default") -> list[tuple]:
        """The query's rows for ``values``."""
        sql, params, places, converters = self._compiled(using)
        connection = connections[using]
        params = list(params)
        for place, value in zip(places, self.prepare(*values, connection=connection), strict=True):
            params[place] = value
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            rows = cursor.fetchall()
        if converters:
            rows = [_converted(row, converters, connection) for row in rows]
        return [self.convert(row) for row in rows]


def _converted(row: tuple, converters: list, connection) -> tuple:
    """``row`` with each value converted as the ORM's compiler does (SQLCompiler.apply_converters)."""
    values = list(row)
    for at, functions, column in converters:
        value = values[at]
        for function in functions:
            value = function(value, column, connection)
        values[at] = value
    return tuple(values)
