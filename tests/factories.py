"""Small factories for tests: build what a test needs, no fixture files."""

from __future__ import annotations

import datetime
import itertools

from django.contrib.auth import get_user_model

from scoring.models import ControlEntry, Game
from tournaments.models import Club, Player, Registration, Seat, Series, Table, Tournament
from tournaments.series import draw_series

_counter = itertools.count(1)


def user(username: str | None = None, *, superuser: bool = False, **extra):
    users = get_user_model()
    name = username or f"user{next(_counter)}"
    if superuser:
        return users.objects.create_superuser(name, email="", password="pw")
    return users.objects.create_user(name, password="pw", **extra)


def tournament(**fields) -> Tournament:
    fields.setdefault("name", f"Open {next(_counter)}")
    fields.setdefault("date", datetime.date(2026, 11, 23))
    fields.setdefault("lot_seed", 7)
    directors = fields.pop("directors", [])
    t = Tournament.objects.create(**fields)
    t.directors.add(*directors)
    return t


def player(name: str | None = None, club: str | None = None, **fields) -> Player:
    club_obj = Club.objects.get_or_create(name=club)[0] if club else None
    return Player.objects.create(name=name or f"Player {next(_counter)}", club=club_obj, **fields)


def registered(t: Tournament, count: int, clubs: int = 0) -> list[Registration]:
    return [
        Registration.objects.create(tournament=t, player=player(club=f"Club {i % clubs}" if clubs else None))
        for i in range(count)
    ]


def drawn(players: int = 8, **tournament_fields) -> tuple[Tournament, Series]:
    t = tournament(**tournament_fields)
    registered(t, players)
    return t, draw_series(t)


def table_of(size: int, **tournament_fields) -> Table:
    """One table of ``size`` in a fresh series (players named Seat1..Seat4)."""
    t = tournament(**tournament_fields)
    series = Series.objects.create(tournament=t, number=1)
    table = Table.objects.create(series=series, number=1, size=size)
    for n in range(1, size + 1):
        Seat.objects.create(table=table, series=series, number=n, player=player(f"Seat{n}"))
    return table


def game(table: Table, number: int, **fields) -> Game:
    """A stored game valued by the engine, as the entry view stores it."""
    g = Game(table=table, number=number, **fields)
    g.apply_rules(table.size)
    g.save()
    return g


def control_entry(table: Table, number: int, **fields) -> ControlEntry:
    """An entry of the table's second list, valued by the engine like a game."""
    entry = ControlEntry(table=table, number=number, **fields)
    entry.apply_rules(table.size)
    entry.save()
    return entry
