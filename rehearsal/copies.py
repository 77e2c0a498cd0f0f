"""A rehearsal's tournament: a practice copy of a real one, or a new one of N made-up players.

The copy takes the tournament's rules and money tables, categories, teams and
registrations (the same players: a registration is the tournament's own, the person is
not), and none of its series: the rehearsal draws and plays them. Every tournament made
here is marked ``practice`` (on every page and PDF, never published or exported to a
league: transfer.exports.refuse_practice).
"""

from __future__ import annotations

import datetime
import random

from django.db import models, transaction

from tournaments.models import (
    Category,
    Club,
    LostGameFee,
    PassedOutFee,
    Player,
    Prize,
    Registration,
    TableMoney,
    Team,
    Tournament,
)
from tournaments.services import DEFAULT_LOST_GAME_FEES, checked_in, give_start_numbers

#: Settings of the tournament that the copy keeps (its name gets "Practice: " in front).
COPIED_SETTINGS = (
    "venue",
    "series_count",
    "rounds_per_series",
    "entry_fee",
    "list_fee",
    "prize_pool_percent",
    "list_fee_refund_percent",
    "table_money_from",
    "lot_seed",
)
FIRST_NAMES = ("Anna", "Bernd", "Carla", "Dieter", "Elke", "Frank", "Gisela", "Horst", "Ingrid", "Jürgen")
SURNAMES = ("Adler", "Becker", "Claußen", "Dietrich", "Engel", "Fischer", "Graf", "Hoffmann", "Iske", "Jäger")
#: Made-up players per practice club.
CLUB_SIZE = 8


def _clone(
    rows: models.QuerySet, tournament: Tournament, *, fixed: dict | None = None, **remap: dict
) -> dict[int, models.Model]:
    """Copy ``rows`` into ``tournament`` (all but the key), foreign keys mapped by ``remap``,
    the fields in ``fixed`` set on every copy: {old pk: copy}.

    In one statement (per thousand rows): the results mark counts a statement once on
    PostgreSQL (scoring/migrations/0013), where one save per row updated the copy's mark row
    once per row in this one transaction, 11.7 s for 3,000 registrations instead of 0.9.
    """
    olds, copies = [], []
    for row in rows.order_by("pk"):
        olds.append(row.pk)
        row.pk = None
        row._state.adding = True
        row.tournament = tournament
        for name, mapping in remap.items():
            if getattr(row, f"{name}_id") is not None:
                setattr(row, name, mapping[getattr(row, f"{name}_id")])
        for name, value in (fixed or {}).items():
            setattr(row, name, value)
        copies.append(row)
    rows.model.objects.bulk_create(copies, batch_size=1000)
    return dict(zip(olds, copies, strict=True))


@transaction.atomic
def practice_copy(source: Tournament, *, series_count: int | None = None) -> Tournament:
    """A practice tournament with ``source``'s rules, money tables, categories, teams and players, no series."""
    copy = Tournament(
        name=f"Practice: {source.name}"[: Tournament._meta.get_field("name").max_length],
        date=datetime.date.today(),
        practice=True,
        **{name: getattr(source, name) for name in COPIED_SETTINGS},
    )
    if series_count:
        copy.series_count = series_count
    copy.save()
    copy.directors.set(source.directors.all())
    for model in (LostGameFee, PassedOutFee, TableMoney):
        _clone(model.objects.filter(tournament=source), copy)
    categories = _clone(Category.objects.filter(tournament=source), copy)
    _clone(Prize.objects.filter(tournament=source), copy, category=categories)
    teams = _clone(Team.objects.filter(tournament=source), copy)
    # Everybody plays from series 1: the registrations as the desk had them, none withdrawn.
    _clone(
        Registration.objects.filter(tournament=source),
        copy,
        team=teams,
        category=categories,
        fixed={"withdrawn_after_series": None, "first_series": 1},
    )
    copy.last_start_number = source.last_start_number
    copy.save(update_fields=["last_start_number"])
    return copy


@transaction.atomic
def new_practice(players: int, *, series_count: int = 3, rounds: int = 12, seed: int = 1, director=None) -> Tournament:
    """A practice tournament of ``players`` made-up players in clubs of :data:`CLUB_SIZE`, checked in and paid."""
    if players < 3:
        raise ValueError("players: a tournament needs at least 3 players (one table of three, 3.1.1)")
    rng = random.Random(seed)
    tournament = Tournament.objects.create(
        name=f"Practice evening ({players} players)",
        date=datetime.date.today(),
        series_count=series_count,
        rounds_per_series=rounds,
        entry_fee="10.00",
        list_fee="2.00",
        lot_seed=rng.randrange(1, 2**31),
        practice=True,
    )
    if director is not None:
        tournament.directors.add(director)
    for start, amount in DEFAULT_LOST_GAME_FEES:
        tournament.lost_game_fees.create(from_lost_game=start, amount=amount)
    numbers = iter(give_start_numbers(tournament, players))
    registrations = []  # in bulk, as practice_copy's (the results mark counts a statement once)
    for index in range(players):
        club = Club.objects.get_or_create(name=f"Practice club {index // CLUB_SIZE + 1}")[0]
        name = f"{FIRST_NAMES[index % len(FIRST_NAMES)]} {SURNAMES[(index // len(FIRST_NAMES)) % len(SURNAMES)]}"
        if index >= len(FIRST_NAMES) * len(SURNAMES):
            name += f" {index // (len(FIRST_NAMES) * len(SURNAMES)) + 1}"
        # The same made-up players come back to the next rehearsal (no new person each time).
        player = Player.objects.filter(name=name, club=club, membership_number="").first()
        if player is None:
            player = Player.objects.create(name=name, club=club)
        registrations.append(checked_in(tournament, player, next(numbers)))
    Registration.objects.bulk_create(registrations, batch_size=1000)
    return tournament
