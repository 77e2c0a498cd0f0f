"""The standings of one tournament, computed from the stored seat totals: ratings and places.

Each seat's game points, games won and games lost are the games it declared, summed
per (table, declarer seat). Database triggers keep those sums in
:class:`scoring.models.SeatTotal` as games are entered, corrected, voided or imported,
so a standings page reads one row per seat instead of grouping every game of the
tournament; :func:`seat_aggregates` is the same sum as one GROUP BY over the games,
the reference the stored rows are checked against (:func:`seat_totals_differ`).
A seat's rating follows from those totals and its table's lost games alone; the engine
computes it (:func:`skat.rating.rate_seat` per seat, :func:`skat.rating.rate_players`
summed per player), and nothing here repeats its formula. (Not the rankings over many
tournaments: those are the ``rankings`` app's.)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterable, Iterator
from dataclasses import dataclass

from django.db import connections
from django.db.models import Count, IntegerField, Q, Sum, Value

from scoring.models import Game, SeatTotal
from skat.rating import Ranked, Rating, rank, rate_players, rate_seat


@dataclass(slots=True)
class PlayerStanding:
    player_id: int
    name: str
    club: str
    rating: Rating
    tables: int
    #: Tables of this player whose sheet is not confirmed yet: his result is provisional.
    unconfirmed: int = 0
    #: His start number in the tournament (None without one, or without a registration).
    start_number: int | None = None

    @property
    def total(self) -> int:
        return self.rating.rating


def plain_rows(query) -> list[tuple]:
    """The rows of a ``values_list`` query as plain tuples, without the ORM's per-row conversion.

    The ORM writes the SQL (portable); the rows hold only integers and text, and
    converting them row by row costs more than the query for a 3,000-player tournament.
    """
    sql, params = query.query.sql_with_params()
    with connections[query.db].cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


def seat_aggregates(games) -> list[tuple]:
    """(table id, declarer seat, points, won, lost) per seat that declared: the one aggregate query.

    Passed-out deals (no declarer) are left out: they count as dealt and score nothing
    (5.5.1). The query reads only the covering index's rows of declared games.
    """
    query = (
        games.order_by()
        .filter(declarer_seat__isnull=False)
        .values_list("table_id", "declarer_seat")
        .annotate(
            # COUNT(won) and COUNT(lost): columns of the covering index (COUNT(id) costs a third more on SQLite).
            points=Sum("score"),
            won=Count("won", filter=Q(won=True)),
            lost=Count("lost", filter=Q(lost=True)),
        )
    )
    return plain_rows(query)


def stored_seat_totals(tables) -> list[tuple]:
    """The rows of :func:`seat_aggregates` for the games of ``tables``, as the triggers keep them.

    Reads :class:`scoring.models.SeatTotal`: one row per seat that has declared, not
    one per game. A row may be all zeros once its games are deleted; it sums to nothing.
    """
    query = SeatTotal.objects.filter(table__in=tables.values("pk")).order_by()
    return plain_rows(query.values_list("table_id", "number", "points", "won", "lost"))


def seat_totals_differ(tables) -> dict[tuple[int, int], tuple[tuple, tuple]]:
    """Seats whose stored totals are not the GROUP BY of their games: {(table, seat): (stored, grouped)}.

    Empty when the triggers did their job; the tests and ``manage.py loadtest`` hold it so.
    """
    grouped = {(t, s): (p or 0, w, x) for t, s, p, w, x in seat_aggregates(Game.objects.filter(table__in=tables))}
    stored = {(t, s): (p, w, x) for t, s, p, w, x in stored_seat_totals(tables) if (p, w, x) != (0, 0, 0)}
    return {
        key: (stored.get(key, (0, 0, 0)), grouped.get(key, (0, 0, 0)))
        for key in grouped.keys() | stored.keys()
        if stored.get(key, (0, 0, 0)) != grouped.get(key, (0, 0, 0))
    }


def rated_seats(seats: Iterable[tuple], aggregates: Iterable[tuple]) -> Iterator[tuple[tuple, Rating]]:
    """Each seat with its :class:`Rating` at its table, from :func:`seat_aggregates`-shaped rows.

    ``seats`` are tuples starting (table id, seat number, player id, table size, ...);
    each is yielded unchanged beside its rating, so callers carry what they print. The
    rating is the engine's :func:`skat.rating.rate_seat` of the seat's totals and its
    table's lost games (the sum of every seat's there); a player's total is the sum of
    his seats' ratings.
    """
    per_seat: dict[tuple[int, int], tuple[int, int, int]] = {}
    table_lost: dict[int, int] = {}
    for table, declarer, points, won, lost in aggregates:
        per_seat[table, declarer] = (points or 0, won, lost)
        table_lost[table] = table_lost.get(table, 0) + lost
    nothing = (0, 0, 0)
    for seat in seats:
        table, number, _player, size = seat[:4]
        points, won, lost = per_seat.get((table, number), nothing)
        yield seat, rate_seat(size, table_lost.get(table, 0), points, won, lost)


def standings(tournament, series_number: int | None = None) -> list[Ranked[PlayerStanding]]:
    """Ranked standings of a tournament, overall or for one series.

    Order (documented in rating.py): rating, then games won, then fewer games lost,
    then a reproducible lot from the tournament's seed. Three queries, whatever the
    size: the seats with their totals, the tables (size and sign-off), the players'
    names; none of them reads the games themselves.
    """
    series_ids = scope_series(tournament, series_number)
    seat_rows = seats_with_totals(series_ids)
    table_rows = sheet_rows(series_ids)
    rows = _player_totals(table_rows, seat_rows, registered_names(tournament))
    if rows is None:
        rows = _player_totals(table_rows, seat_rows, seated_names(series_ids))
    return rank(rows, _rating_of, lot_seed=tournament.lot_seed, lot_key=_player_id_of)


def scope_series(tournament, series_number: int | None = None):
    """The ids of the series in scope (all of the tournament's, or number ``series_number``), as a subquery."""
    from tournaments.models import Series

    series = Series.objects.filter(tournament=tournament)
    if series_number is not None:
        series = series.filter(number=series_number)
    return series.order_by().values("pk")


def sheet_rows(series_ids) -> list[tuple]:
    """(table id, size, sign-off id or None) of the tables of the series.

    Only confirmed sheets are final (signoff.confirm, 5.5.3); the others are marked provisional.
    """
    from tournaments.models import Table

    return plain_rows(Table.objects.filter(series__in=series_ids).order_by().values_list("pk", "size", "signoff"))


def registered_names(tournament) -> list[tuple]:
    """(player id, name, club, start number) of every registration of the tournament."""
    from tournaments.models import Registration

    names = Registration.objects.filter(tournament=tournament).order_by()
    return plain_rows(names.values_list("player_id", "player__name", "player__club__name", "start_number"))


def seated_names(series_ids) -> list[tuple]:
    """(player id, name, club, None) of every seated player: the names when a seated player
    has no registration (not made by the office's own views or imports), one more query."""
    from tournaments.models import Player, Seat

    people = Player.objects.filter(pk__in=Seat.objects.filter(series__in=series_ids).values("player_id"))
    return plain_rows(people.order_by().values_list("pk", "name", "club__name", Value(None, IntegerField())))


def ranking_order(tournament) -> list[int]:
    """The tournament's players in the order of the standings, best first (player ids):
    what a seeded draw seats by (draw.series imports it)."""
    return [row.item.player_id for row in standings(tournament)]


@dataclass(slots=True)
class TeamStanding:
    """A team's result: the sum of its players' results (DOMAIN, "Teams and leagues").

    Every count is the sum of the counts of the team's players who played in the scope
    (substitutes included, whoever sat at a table); ``members`` lists them best first.
    """

    team_id: int
    name: str
    #: The team's players who played, best first: (name, rating).
    members: list[tuple[str, int]]
    rating: Rating
    #: Tables played by its players, added up.
    tables: int
    #: Its players' tables whose sheet is not confirmed yet: the team's result is provisional.
    unconfirmed: int = 0

    @property
    def total(self) -> int:
        return self.rating.rating

    @property
    def players(self) -> str:
        """The players, best first, as one line (where the ranking list prints a club)."""
        return ", ".join(name for name, _rating in self.members)


def team_standings(
    tournament, series_number: int | None = None, players: list[Ranked[PlayerStanding]] | None = None
) -> list[Ranked[TeamStanding]]:
    """Ranked team standings: each team's players' ratings and counts added up.

    The same order as the players' (rating, more games won, fewer lost, then the lot
    drawn from the tournament's seed and the team). ``players``: the ranked
    :func:`standings` of the same scope when the caller has them already; otherwise
    they are read. One query more than the players' standings: who plays in which team.
    Teams none of whose players played in the scope are not listed.
    """
    from tournaments.models import Registration

    if players is None:
        players = standings(tournament, series_number)
    memberships = Registration.objects.filter(tournament=tournament, team__isnull=False).order_by()
    team_of = {
        player: (team, name)
        for player, team, name in plain_rows(memberships.values_list("player_id", "team_id", "team__name"))
    }
    teams: dict[int, TeamStanding] = {}
    for entry in players:  # in ranking order: each team's players come best first
        found = team_of.get(entry.item.player_id)
        if found is None:
            continue
        team_id, name = found
        team = teams.get(team_id)
        if team is None:
            team = teams[team_id] = TeamStanding(team_id, name, [], Rating(), 0)
        team.members.append((entry.item.name, entry.rating.rating))
        team.rating += entry.rating
        team.tables += entry.item.tables
        team.unconfirmed += entry.item.unconfirmed
    return rank(teams.values(), _rating_of, lot_seed=tournament.lot_seed, lot_key=_team_lot_key)


def _team_lot_key(row: TeamStanding) -> str:
    return f"team:{row.team_id}"


def seats_with_totals(series_ids, tables: Collection[int] | None = None, sheets: bool = False) -> list[tuple]:
    """(table id, player id, points, won, lost) of every seat of the series (at ``tables``
    only, if given); None where a seat declared nothing. ``sheets``: each row also has its
    table's size, sign-off id (None while the sheet is not confirmed) and series number.

    The seats joined to their :class:`scoring.models.SeatTotal` on (table, seat number)
    in the database: one row per seat, which is what costs on a 3,000-player page.
    Plain SQL because the two tables meet on two columns, which the ORM cannot join;
    the series subquery is the ORM's.
    """
    from tournaments.models import Seat, Series, Table

    connection = connections[series_ids.db]
    quote = connection.ops.quote_name
    series_sql, params = series_ids.query.sql_with_params()
    sheet, joined = "", ""
    if sheets:
        signoff = Table._meta.get_field("signoff").related_model._meta.db_table
        sheet = ", tb.size, so.id, sr.number"
        joined = (
            f"JOIN {quote(Table._meta.db_table)} tb ON tb.id = s.table_id "
            f"JOIN {quote(Series._meta.db_table)} sr ON sr.id = s.series_id "
            f"LEFT JOIN {quote(signoff)} so ON so.table_id = s.table_id "
        )
    sql = (
        f"SELECT s.table_id, s.player_id, t.points, t.won, t.lost{sheet} FROM {quote(Seat._meta.db_table)} s "
        f"LEFT JOIN {quote(SeatTotal._meta.db_table)} t ON t.table_id = s.table_id AND t.number = s.number "
        f"{joined}WHERE s.series_id IN ({series_sql})"
    )
    if tables is not None:
        ids = [int(table) for table in tables] or [0]  # integers only: they go into the SQL's text
        sql += f" AND s.table_id IN ({', '.join(map(str, ids))})"
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


def _rating_of(row: PlayerStanding | TeamStanding) -> Rating:
    return row.rating


def _player_id_of(row: PlayerStanding) -> int:
    return row.player_id


def _player_totals(table_rows: list[tuple], seat_rows: list[tuple], names: list[tuple]) -> list[PlayerStanding] | None:
    """Each player's summed tables, for the ranking list; None when a seated player has no name row.

    ``table_rows``: (table id, size, sign-off id or None); ``seat_rows``: (table id,
    player id, points, won, lost) as :func:`seats_with_totals` reads them; ``names``:
    (player id, name, club, start number). The ratings are the engine's fast form,
    :func:`skat.rating.rate_players` (the sums of its checked :func:`skat.rating.rate_seat`
    per seat): this runs over every seat of a 3,000-player tournament on each standings
    page. Here only the tables played and those not confirmed yet are counted.
    """
    sizes = {table: size for table, size, _signoff in table_rows}
    unsigned_tables = {table for table, _size, signoff in table_rows if signoff is None}
    ratings = rate_players(sizes, seat_rows)
    tables = Counter([row[1] for row in seat_rows])
    unconfirmed = Counter([row[1] for row in seat_rows if row[0] in unsigned_tables])
    result = []
    append = result.append
    for pk, name, club, start in names:
        if pk in tables:  # registered players without a seat are not in the standings
            append(PlayerStanding(pk, name, club or "", ratings[pk], tables[pk], unconfirmed[pk], start))
    return result if len(result) == len(tables) else None


@dataclass(frozen=True, slots=True)
class Finality:
    """How final the standings of the tournament or one series are (:func:`finality`)."""

    confirmed: int
    sheets: int
    #: The numbers of the series in scope not finished yet (drawn or running).
    unfinished: tuple[int, ...]

    @property
    def final(self) -> bool:
        return self.confirmed == self.sheets and not self.unfinished


def finality(tournament, series_number: int | None = None) -> Finality:
    """The confirmed and all sheets (tables) and the unfinished series, in one query.

    Overall, the series the tournament plans but has not drawn yet are unfinished too:
    after series 1 of 3 nothing is final, however confirmed its sheets are.
    """
    from tournaments.models import Series

    series = Series.objects.filter(tournament=tournament)
    if series_number is not None:
        series = series.filter(number=series_number)
    # A table has at most one sign-off (one-to-one): the join does not multiply tables.
    rows = (
        series.annotate(sheets=Count("tables"), confirmed=Count("tables__signoff"))
        .order_by("number")
        .values_list("number", "status", "sheets", "confirmed")
    )
    confirmed = sheets = drawn = 0
    unfinished = []
    for number, status, series_sheets, series_confirmed in rows:
        drawn = max(drawn, number)
        sheets += series_sheets
        confirmed += series_confirmed
        if status != Series.Status.FINISHED:
            unfinished.append(number)
    if series_number is None:
        unfinished.extend(range(drawn + 1, tournament.series_count + 1))
    return Finality(confirmed, sheets, tuple(unfinished))
