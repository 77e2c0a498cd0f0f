"""Small builders for the referees' tests (on top of tests/factories.py)."""

from __future__ import annotations

from django.urls import reverse

from referees.models import RefereeAssignment
from signoff.pins import seat_pin
from tests import factories
from tournaments.models import Table

#: Three deals of a table of three (one round): what `full_table` enters.
DEALS = [
    {"declarer_seat": 1, "contract": "grand", "tops": 1, "declarer_points": 70},  # +48
    {"declarer_seat": 2, "contract": "hearts", "tops": 2, "declarer_points": 50},  # -60
    {"passed_out": True},
]


def open_table(size: int = 3, **tournament_fields) -> Table:
    """A table of a one-round series: 3 deals at three, 4 at four."""
    tournament_fields.setdefault("rounds_per_series", 1)
    return factories.table_of(size, **tournament_fields)


def full_table(size: int = 3, **tournament_fields) -> Table:
    """A table whose every deal is entered: its sheet awaits confirmation."""
    table = open_table(size, **tournament_fields)
    deals = (
        DEALS if size == 3 else [*DEALS, {"declarer_seat": 2, "contract": "clubs", "tops": 1, "declarer_points": 61}]
    )
    for number, fields in enumerate(deals, start=1):
        if size == 4 and fields.get("declarer_seat") == (number - 1) % 4 + 1:
            fields = {**fields, "declarer_seat": fields["declarer_seat"] % 4 + 1}
        factories.game(table, number, **fields)
    return table


def confirm_all(client, table: Table) -> None:
    for seat in range(1, table.size + 1):
        client.post(reverse("table:confirm", args=[table.token]), {"seat": seat, "pin": seat_pin(table, seat)})


def referee_of(tournament, username: str | None = None):
    user = factories.user(username)
    RefereeAssignment.objects.create(tournament=tournament, user=user)
    return user


def director_of(tournament, username: str | None = None):
    user = factories.user(username)
    tournament.directors.add(user)
    return user
