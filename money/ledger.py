"""Each table's settlement (5.5.5) and fee account, loaded in a fixed number of queries.

The ratings come from :func:`scoring.tablesheet.build` over the stored games (nothing is
valued again), the settlement from :mod:`skat.settlement` and the money from
:mod:`skat.fees` with the tournament's own rule tables.
"""

from __future__ import annotations

from collections import namedtuple
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal

from django.core.exceptions import EmptyResultSet
from django.db import connections
from django.db.models import Count, F, FilteredRelation, Prefetch, Q

from scoring import tablesheet
from skat import fees
from skat.fees import FeeError
from skat.prizes import PrizeList, prize_list
from skat.rating import Rating
from skat.settlement import pairwise, settle
from tournaments.models import Tournament

#: The stored fields a printed sheet shows (5.5.2) and a settlement reads; the rest of a Game
#: is not loaded. Defined here, where the settlement reads them; printing.documents, which
#: prints them, imports them from here (documents draw what accounts compute, not back).
SHEET_GAME_FIELDS = (
    "table_id",
    "number",
    "passed_out",
    "declarer_seat",
    "contract",
    "tops",
    "tops_kind",
    "hand",
    "schneider_announced",
    "schwarz_announced",
    "ouvert",
    "value",
    "score",
    "won",
    "lost",
    "overbid",
    "schneider",
    "schwarz",
    "voided",
)

#: A filled sheet also marks the deals a referee changed (GameQuerySet.with_correction_reason).
PrintedGame = namedtuple("PrintedGame", (*SHEET_GAME_FIELDS, "correction_reason"), defaults=(None,))
PrintedGame.__doc__ = "A stored game's printed fields; read like a Game by tablesheet.build and the sheet."


@dataclass(frozen=True, slots=True)
class SeatPlayer:
    number: int
    player_id: int
    name: str
    club: str


@dataclass(frozen=True, slots=True)
class TableSettlement:
    """One table: its players' ratings, the 5.5.5 settlement and the fee account."""

    series: int
    table: int
    size: int
    deals: int
    entered: int
    passed_out: int
    seats: tuple[SeatPlayer, ...]
    ratings: tuple[Rating, ...]
    settlement: tuple[int, ...]
    transactions: tuple[tuple[int, ...], ...]
    places: tuple[int, ...]
    accounts: tuple[fees.PlayerAccount, ...]
    #: The players confirmed the sheet (5.5.3); until then the settlement is provisional.
    confirmed: bool = False

    @property
    def account(self) -> fees.Account:
        return fees.Account.of(self.accounts)


def _tables(tournament, series_ids: Iterable[int], table_pk: int | None = None):
    from tournaments.models import Seat, Table

    # The sheet's sign-off rides along (one-to-one): whether each settlement is final.
    tables = Table.objects.filter(series_id__in=list(series_ids)).select_related("series", "signoff")
    if table_pk is not None:
        tables = tables.filter(pk=table_pk)
    seats = Seat.objects.select_related("player__club").order_by("number")
    return list(tables.prefetch_related(Prefetch("seats", queryset=seats)).order_by("series__number", "number"))


def settlements(tournament, series_list, table_pk: int | None = None) -> list[TableSettlement]:
    """The settlements of every table of ``series_list`` (or only table ``table_pk``).

    Seven queries whatever the number of tables: tables, seats, games, registrations and
    the tournament's three fee tables.
    """
    series_list = list(series_list)
    tables = _tables(tournament, [s.pk for s in series_list], table_pk)
    games = _games_by_table([t.pk for t in tables])
    registrations = _registrations(tournament, tables)
    rules = tournament.fee_rules()
    result = []
    for table in tables:
        seats = tuple(
            SeatPlayer(s.number, s.player_id, s.player.name, s.player.club.name if s.player.club_id else "")
            for s in table.seats.all()
        )
        if len(seats) != table.size:
            continue  # a table whose seats are being changed has no settlement yet
        result.append(_settlement(tournament, rules, table, seats, games.get(table.pk, []), registrations))
    return result


def _games_by_table(table_ids: list[int]) -> dict[int, list[PrintedGame]]:
    """The tables' games in the order of their sheets, in one query."""
    from scoring.models import Game

    games: dict[int, list] = {}
    rows = Game.objects.filter(table_id__in=table_ids).order_by("table_id", "number").values_list(*SHEET_GAME_FIELDS)
    for row in rows:
        game = PrintedGame(*row)  # its correction mark left at None: not printed here
        games.setdefault(game.table_id, []).append(game)
    return games


def _registrations(tournament, tables) -> dict[int, object]:
    """The seated players' registrations by player id: who still owes his fees, in one query."""
    from tournaments.models import Registration

    player_ids = {s.player_id for t in tables for s in t.seats.all()}
    return {
        r.player_id: r
        for r in Registration.objects.filter(tournament=tournament, player_id__in=player_ids).only(
            "player_id", "first_series", "paid", "list_fees_paid"
        )
    }


def _settlement(
    tournament, rules, table, seats: tuple[SeatPlayer, ...], table_games: list, registrations: dict
) -> TableSettlement:
    """One fully seated table's settlement (5.5.5) and fee account from its sheet."""
    sheet = tablesheet.build(table.size, tournament.deals_per_table(table.size), table_games)
    ratings = sheet.ratings
    totals = [r.points for r in ratings]
    places = fees.places(ratings, [s.player_id for s in seats], tournament.lot_seed)
    passed_out = sum(1 for g in table_games if g.passed_out)
    due, list_due = _fees_due(seats, registrations, table.series.number)
    accounts = fees.table_account(
        rules,
        size=table.size,
        lost=[r.lost for r in ratings],
        places=places,
        passed_out=passed_out,
        entry_due=due,
        list_due=list_due,
    )
    return TableSettlement(
        series=table.series.number,
        table=table.number,
        size=table.size,
        deals=sheet.deals,
        entered=sheet.entered,
        passed_out=passed_out,
        seats=seats,
        ratings=ratings,
        settlement=tuple(settle(totals)),
        transactions=tuple(tuple(row) for row in pairwise(totals)),
        places=tuple(places),
        accounts=accounts,
        confirmed=getattr(table, "signoff", None) is not None,
    )


def _fees_due(seats, registrations: dict, series_number: int) -> tuple[list[bool], list[bool]]:
    """Per seat, whether the entry fee is paid at this table (not paid, and his first
    series) and whether the list fees are (not paid at the desk)."""
    due = []
    for seat in seats:
        registration = registrations.get(seat.player_id)
        due.append(registration is not None and not registration.paid and registration.first_series == series_number)
    # Who paid his list fees at the desk pays none at the table.
    list_due = [
        not (registrations.get(seat.player_id) and registrations[seat.player_id].list_fees_paid) for seat in seats
    ]
    return due, list_due


@dataclass(frozen=True, slots=True)
class FeeAccount:
    """The tournament's money overall: per series, the entry fees (and list fees) paid at
    the desk, the total, and where it goes (prize pool and organiser)."""

    by_series: tuple[tuple[object, int, fees.Account], ...]  # (series, tables, account)
    paid_at_registration: int
    at_registration: fees.Account
    total: fees.Account
    distribution: fees.Distribution


def fee_account(tournament) -> FeeAccount:
    """Sum every table's fee account of every series and add the cash taken at the desk
    (tournaments.door: entry fees, and the list fees of the players who paid them
    there); the rest is collected at the tables.

    The same money as :func:`settlements` summed (tests/money/test_ledger.py holds
    them equal), counted from the stored seat totals instead of every game: a fixed
    number of queries reading a few rows per table and a few dozen sums, so the page
    of a 3,000-player tournament is not a walk over 100,000 games.
    """
    from tournaments import door

    all_series = list(tournament.series.order_by("number"))
    counted = table_counts(tournament, all_series)
    rules = tournament.fee_rules()
    by_series = tuple(
        (series, len(counted.get(series.number, ())), fees.tables_account(rules, counted.get(series.number, ())))
        for series in all_series
    )
    desk = door.totals(tournament)
    # Everyone whose entry fee was taken, withdrawn players too (it is not given back):
    # the same players the desk's cash counts, so the list fees are what remains of it.
    paid = desk.paid_entry_fees
    entry_fees = tournament.entry_fee * paid
    at_registration = fees.Account(entry_fees=entry_fees, list_fees=desk.cash - entry_fees)
    total = at_registration
    for _series, _tables, account in by_series:
        total = total + account
    return FeeAccount(
        by_series=by_series,
        paid_at_registration=paid,
        at_registration=at_registration,
        total=total,
        distribution=fees.distribute(total.kept, tournament.prize_pool_percent),
    )


def table_counts(tournament, series_list) -> dict[int, list[fees.TableCounts]]:
    """{series number: what each complete table's fee account depends on}.

    Four queries of a row per table whatever the size: the tables, their seats counted
    with who pays the entry fee or the list fee there (the registrations asked in the
    database), the games each seat lost (the stored seat totals,
    :class:`scoring.models.SeatTotal`, as the standings read them) and the passed-out deals.
    """
    from scoring.models import Game, SeatTotal
    from tournaments.models import Seat, Table

    series_ids = [s.pk for s in series_list]
    tables = Table.objects.filter(series_id__in=series_ids).order_by()
    # Each seat's registration here, joined once (a correlated lookup per seat and count took twice as long).
    registration = FilteredRelation("player__registrations", condition=Q(player__registrations__tournament=tournament))
    seats = {
        table: (count, entry_due, list_paid)
        for table, count, entry_due, list_paid in _rows(
            Seat.objects.filter(series_id__in=series_ids)
            .annotate(registration=registration)
            .order_by()
            .values_list("table_id")
            .annotate(
                count=Count("pk"),
                # Who has not paid pays his entry fee at the table of his first series.
                entry_due=Count(
                    "pk", filter=Q(registration__paid=False, registration__first_series=F("series__number"))
                ),
                # Who paid his list fees at the desk pays none at the table.
                list_paid=Count("pk", filter=Q(registration__list_fees_paid=True)),
            )
        )
    }
    lost: dict[int, list[int]] = {}
    for table, games in _rows(
        SeatTotal.objects.filter(table__series_id__in=series_ids, lost__gt=0)
        .order_by()
        .values_list("table_id", "lost")
    ):
        lost.setdefault(table, []).append(games)
    # A passed-out deal is the one without a declarer (a constraint of Game): the
    # covering index (table, declarer seat, ...) answers this without reading the games.
    passed_out = dict(
        _rows(
            Game.objects.filter(table__series_id__in=series_ids, declarer_seat__isnull=True)
            .order_by()
            .values_list("table_id")
            .annotate(n=Count("table_id"))
        )
    )
    result: dict[int, list[fees.TableCounts]] = {}
    for table, size, series_number in _rows(tables.values_list("pk", "size", "series__number")):
        count, entry_due, list_paid = seats.get(table, (0, 0, 0))
        if count != size:
            continue  # a table whose seats are being changed has no settlement yet
        table_lost = lost.get(table, [])
        result.setdefault(series_number, []).append(
            fees.TableCounts(
                size=size,
                lost=(*table_lost, *[0] * (size - len(table_lost))),
                passed_out=passed_out.get(table, 0),
                entry_due=entry_due,
                list_due=size - list_paid,
            )
        )
    return result


def _rows(query) -> list[tuple]:
    """A ``values_list`` query's rows of integers as plain tuples: the ORM writes the SQL, but its
    conversion of thousands of rows one by one cost more than the queries at 3,000 players."""
    try:
        sql, params = query.query.sql_with_params()
    except EmptyResultSet:  # nothing can match (no series yet): the ORM asks nothing either
        return []
    with connections[query.db].cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


@dataclass(frozen=True, slots=True)
class PrizeWinner:
    place: int
    name: str
    club: str
    rating: int
    amount: Decimal
    #: The category whose own ranking the place is of ("" for the overall ranking).
    category: str = ""


@dataclass(frozen=True, slots=True)
class PrizePayout:
    """Who receives which prize: the prize table applied to the pool and the ranking, the
    overall prizes first, then each category's; ``prizes`` sums all of them against the pool."""

    prizes: PrizeList
    winners: tuple[PrizeWinner, ...]


def prize_payout(tournament, pool: Decimal, ranked=None) -> PrizePayout:
    """The prize of each place the tournament's prize table names, with its player.

    ``ranked``: the overall standings when the caller has them. Raises
    :class:`skat.fees.FeeError` for a prize table that cannot be paid out (one edited
    around the rules page's checks, e.g. shares above 100 %).
    """
    from standings.categories import within_category
    from standings.places import standings

    if ranked is None:
        ranked = standings(tournament)
    prizes = prize_list(pool, tournament.prize_rules(), len(ranked))
    winners = _winners(ranked, prizes, "")
    paid = list(prizes.prizes)
    by_category = tournament.category_prize_rules()
    if by_category:
        # A category's own prize (best woman): its place in the category's own ranking.
        for category in tournament.categories.filter(pk__in=by_category).order_by("name"):
            own = within_category(ranked, category)
            listed = prize_list(pool, by_category[category.pk], len(own))
            winners += _winners(own, listed, category.name)
            paid += listed.prizes
    return PrizePayout(PrizeList(pool=prizes.pool, prizes=tuple(paid)), winners)


def _winners(ranked, prizes: PrizeList, category: str) -> tuple[PrizeWinner, ...]:
    by_place = {entry.place: entry for entry in ranked}
    return tuple(
        PrizeWinner(
            place,
            by_place[place].item.name,
            by_place[place].item.club,
            by_place[place].rating.rating,
            amount,
            category,
        )
        for place, amount in prizes.prizes
    )


def tournament_money(tournament: Tournament, ranked=None) -> tuple[Tournament, FeeAccount, PrizePayout | FeeError]:
    """The tournament with its money tables, its fee account, and its prize payout (or
    the reason its prize table cannot be paid out): the page and the PDF agree.
    ``ranked``: the overall standings when the caller has them (the pages read them from
    the standings' cache)."""
    tournament = Tournament.objects.prefetch_related("lost_game_fees", "passed_out_fees", "table_money", "prizes").get(
        pk=tournament.pk
    )
    account = fee_account(tournament)
    try:
        return tournament, account, prize_payout(tournament, account.distribution.prize_pool, ranked)
    except FeeError as error:
        return tournament, account, error
