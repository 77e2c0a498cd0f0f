"""The Ranking, Teams and Results sheets: the standings, team standings and series results."""

from __future__ import annotations

from collections.abc import Iterator

from standings.places import rated_seats, standings, stored_seat_totals, team_standings


def _players(tournament) -> dict[int, tuple[str, str, str]]:
    """player id -> (membership number, nationality, category) for everyone registered."""
    from tournaments.models import Registration

    return {
        pk: (number or "", nationality or "", category or "")
        for pk, number, nationality, category in Registration.objects.filter(tournament=tournament).values_list(
            "player_id", "player__membership_number", "player__nationality", "category__name"
        )
    }


def ranking_rows(tournament, category=None) -> Iterator[tuple]:
    """The Ranking sheet: the standings, with membership number and nationality; with a
    ``category``, its own ranking (its players only, placed again from 1)."""
    from standings.categories import within_category

    players = _players(tournament)
    for entry in within_category(standings(tournament), category):
        number, nationality, category_name = players.get(entry.item.player_id, ("", "", ""))
        r = entry.rating
        yield (
            entry.place,
            entry.item.name,
            entry.item.club,
            number,
            nationality,
            r.points,
            r.won,
            r.lost,
            r.bonus,
            r.rating,
            entry.item.tables,
            category_name,
        )


def team_rows(tournament) -> Iterator[tuple]:
    """The Teams sheet: each team's figures, the sums of its players'; its players best first."""
    for entry in team_standings(tournament):
        r = entry.rating
        yield (
            entry.place,
            entry.item.name,
            entry.item.players,
            r.points,
            r.won,
            r.lost,
            r.bonus,
            r.rating,
            entry.item.tables,
        )


def results_rows(tournament) -> Iterator[tuple]:
    """The Results sheet: one row per player and series, in the order of the ranking."""
    from tournaments.models import Seat, Table

    places = {entry.item.player_id: entry.place for entry in standings(tournament)}
    players = _players(tournament)
    aggregates = stored_seat_totals(Table.objects.filter(series__tournament=tournament))
    seats = Seat.objects.filter(series__tournament=tournament).values_list(
        "table_id", "number", "player_id", "table__size", "player__name", "series__number", "table__number"
    )
    lines = []
    for (_table, seat, player_id, _size, name, series, table_number), r in rated_seats(seats, aggregates):
        number = players.get(player_id, ("", ""))[0]
        place = places.get(player_id, 0)
        lines.append((place, name, number, series, table_number, seat, r.points, r.won, r.lost, r.bonus, r.rating))
    lines.sort(key=lambda line: (line[0], line[3]))
    yield from lines
