"""Small factories for tests: build what a test needs, no fixture files."""

from __future__ import annotations

import datetime
import itertools
import uuid

from django.contrib.auth import get_user_model

from draw.series import draw_series
from scoring import services
from scoring.models import ControlEntry, Game
from tournaments.models import Club, Player, Registration, Seat, Series, Table, Tournament

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
    """A stored game valued by the engine, as the entry stores it (scoring.services.save_deal).

    Its value and score are the engine's: a test states what it expects of them by hand,
    with the Skatordnung's arithmetic in a comment, never read back from the game.
    """
    return services.save_deal(Game(table=table, number=number, **fields))


def league_group(teams: int = 4, roster: int = 6, *, managers=(), **league_fields):
    """A league with one group of ``teams`` teams ("Team A", ...), each with a roster of
    ``roster`` players (positions 1-4 regular, then reserves; "A1".. "A6") and its first
    player as captain. Answers (league, group, [teams])."""
    from leagues.models import Group, League, LeagueTeam, RosterEntry

    league_fields.setdefault("name", f"Liga {next(_counter)}")
    league_fields.setdefault("season", "2026")
    league_fields.setdefault("lot_seed", 11)
    league = League.objects.create(**league_fields)
    league.managers.add(*managers)
    group = Group.objects.create(league=league, name="Staffel 1")
    made = []
    for t in range(teams):
        letter = chr(ord("A") + t)
        team = LeagueTeam.objects.create(group=group, name=f"Team {letter}")
        players = [player(f"{letter}{n}", club=f"Club {letter}") for n in range(1, roster + 1)]
        RosterEntry.objects.bulk_create(
            [RosterEntry(team=team, player=p, position=n) for n, p in enumerate(players, start=1)]
        )
        team.captain = players[0]
        team.save()
        made.append(team)
    return league, group, made


def play_series(series: Series, winner: str | None = None) -> None:
    """Every table of the series: the player of team ``winner`` (a tournament team name)
    wins a grand (+48) in the first deal he does not deal; every other deal passed out.
    Without a winner every deal is passed out. Then the series is finished."""
    for table in series.tables.prefetch_related("seats__player__registrations__team"):
        seats = {seat.number: seat for seat in table.seats.all()}
        declarer = None
        for seat in seats.values():
            teams = {
                r.team.name
                for r in seat.player.registrations.all()
                if r.team and r.tournament_id == series.tournament_id
            }
            if winner in teams:
                declarer = seat.number
        play_table(table, declarer)
    Series.objects.filter(pk=series.pk).update(status=Series.Status.FINISHED)


def play_table(table: Table, declarer: int | None) -> None:
    """Every deal of the table: seat ``declarer`` wins a grand (+48) in the first deal he
    does not deal, every other deal passed out (all passed out without a declarer)."""
    from skat.sheet import active_seats

    done = False
    for number in range(1, table.deals + 1):
        if declarer and not done and declarer in active_seats(number, table.size):
            # Won with 61 card points: 24 (5.2.1) x (1 top + 1 game) = +48.
            game(table, number, declarer_seat=declarer, contract="grand", tops=1, declarer_points=61)
            done = True
        else:
            game(table, number, passed_out=True)


def control_entry(table: Table, number: int, **fields) -> ControlEntry:
    """An entry of the table's second list, valued by the engine like a game."""
    return services.save_deal(ControlEntry(table=table, number=number, **fields))


def phone_form(table, number: int = 1):
    """A valid entry form for deal ``number`` of ``table``, as a phone sends it (seats 1-3 named A, B, C)."""
    from scoring.forms import GameForm

    fields = {"declarer_seat": 1, "contract": "clubs", "tops": 2, "declarer_points": 80}
    form = GameForm(
        {"number": number, "client_id": str(uuid.uuid4()), "tops_kind": "with", **fields},
        table=table,
        players={1: "A", 2: "B", 3: "C"},
    )
    assert form.is_valid(), form.errors
    return form
