"""What the player's own page shows: where he sits now, his results, his place, his rankings.

Right after a draw 3,000 phones ask at once (about 50 a second for a minute), so a page
costs a handful of indexed queries and one cache read: his seat is read fresh from the
database (a seat changed after the draw shows at once), his figures come from one index
of every player's figures kept in the standings cache under the results mark the public pages show
(standings.cache: computed once per change of the results, shared by every worker).

Unpublished standings stay unpublished: the page then shows the seat, never a place or a
result (the director publishes them under Rules and fees). The table's entry link is
never on the page: it is the scorekeeper's, not the player's (the page is not the table).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import OuterRef, Subquery
from django.urls import reverse

from rankings.models import RankingLine, RankingTournament
from scoring.models import Game
from standings.cache import Mark, cache_key, computing_public_page, given_back, lookup, results_mark, store
from standings.claims import claim, release
from standings.pages import Scope, board
from tournaments.models import Registration, Seat, Series, Tournament
from tournaments.player_links import registration_id, token_matches


@dataclass(frozen=True, slots=True)
class Mate:
    seat: int
    name: str
    start_number: int | None
    me: bool


@dataclass(frozen=True, slots=True)
class SeatNow:
    """His place in the newest series: ``table`` None when he has no seat in it."""

    series: int
    status: str
    table: int | None = None
    seat: int | None = None
    mates: tuple[Mate, ...] = ()


@dataclass(frozen=True, slots=True)
class Figures:
    """A result as the standings have it: place, rating and its parts, tables played."""

    place: int
    rating: int
    points: int
    won: int
    lost: int
    tables: int
    unconfirmed: int


@dataclass(frozen=True, slots=True)
class RankingResult:
    tournament: str
    date: object
    series: int | None
    value: int
    counted: bool


@dataclass(slots=True)
class RankingShown:
    name: str
    url: str
    place: int | None
    value: str
    played: int
    counted: int
    results: list[RankingResult] = field(default_factory=list)


@dataclass(slots=True)
class PlayerPage:
    registration: Registration
    tournament: Tournament
    published: bool
    seat: SeatNow | None
    #: Another request is computing the figures of the newest results (a moment after a change).
    updating: bool
    overall: Figures | None
    series: list[tuple[int, Figures]]
    rankings: list[RankingShown]


def registration_for(token: str) -> Registration | None:
    """The registration whose private link ``token`` is (one query), or None for any other text."""
    pk = registration_id(token)
    if pk is None:
        return None
    found = Registration.objects.select_related("tournament", "player__club").filter(pk=pk).first()
    if found is None or not token_matches(found, token):
        return None
    return found


def seat_now(registration: Registration) -> SeatNow | None:
    """His table and seat in the newest series and who sits with him (two queries; None
    before the first draw). Read fresh: a seat swapped after the draw shows at once."""
    tournament_id = registration.tournament_id
    newest = Series.objects.filter(tournament_id=tournament_id).order_by("-number")
    start = Registration.objects.filter(tournament_id=tournament_id, player_id=OuterRef("player_id"))
    mine = Seat.objects.filter(series=Subquery(newest.values("pk")[:1]), player_id=registration.player_id)
    rows = list(
        Seat.objects.filter(table_id__in=Subquery(mine.values("table_id")))
        .order_by("number")
        .values_list(
            "number", "player_id", "player__name", "table__number", "series__number", "series__status",
            Subquery(start.values("start_number")[:1]),
        )
    )  # fmt: skip
    if not rows:
        series = newest.values_list("number", "status").first()
        return SeatNow(*series) if series else None
    mates = tuple(
        Mate(number, name, start_number, player == registration.player_id)
        for number, player, name, *_rest, start_number in rows
    )
    me = next(mate for mate in mates if mate.me)
    _number, _player, _name, table, series, status, _start = rows[0]
    return SeatNow(series, status, table, me.seat, mates)


FIGURES = ("place", "rating", "points", "won", "lost", "tables", "unconfirmed")


def _figures(row: dict) -> tuple[int, ...]:
    return tuple(row[name] for name in FIGURES)


#: The index is kept in this many parts, by player id: a page reads the part of its player
#: (some 50 players' figures), not all 3,000 (a 12 ms unpickling on every page).
SHARDS = 64


def _index(tournament: Tournament, mark: Mark) -> dict[int, tuple]:
    # Before a series' first deal every rating is 0 and its "places" are a tie broken by
    # nothing (they looked random): no place is shown until a deal of it is entered.
    dealt = series_dealt(tournament)
    if not dealt:
        return {}
    overall = {row["player_id"]: _figures(row) for row in board(tournament, mark, Scope()).rows}
    series: dict[int, list] = {}
    for number in sorted(dealt):
        for row in board(tournament, mark, Scope(series_number=number)).rows:
            series.setdefault(row["player_id"], []).append((number, _figures(row)))
    return {player: (overall.get(player), tuple(series.get(player, ()))) for player in overall.keys() | series.keys()}


#: Seconds the request computing the figures of a new mark holds its claim at most (it may die).
CLAIM_SECONDS = 10
#: What :func:`figures_of` answers while another request computes the figures.
UPDATING = "updating"


def figures_of(tournament: Tournament, mark: Mark, player_id: int) -> tuple | str | None:
    """The player's overall figures and his figures per series: (overall, ((series, figures),
    ...)), each figures a plain tuple in :data:`FIGURES` order; None without any;
    :data:`UPDATING` while another request computes them.

    Every player's are computed together once per results mark from the standings' boards
    (each cached too) and kept in :data:`SHARDS` parts shared by every worker. The first
    page of a new mark computes them; the pages asked meanwhile do not wait nor compute
    too (at 3,000 players right after a draw that was a pile of computations, each half
    a second): they show the seat, which is what is asked then, and say that the results
    are being brought up to date.
    """

    def shard_key(number: int) -> str:
        return cache_key(tournament, mark, "player-figures", number)

    shard = lookup(shard_key(player_id % SHARDS))
    if shard is not None:
        return shard.get(player_id)
    # One computation across the serving processes (standings.claims: FileBasedCache.add
    # is not atomic); a cache that cannot be written computes here.
    claimed = figures_claim(tournament, mark)
    if not claim(claimed, CLAIM_SECONDS):
        return UPDATING
    with given_back(claimed):  # given back whatever stops it, storing them too
        # Another page may have stored them and given its claim back since the look above.
        shard = lookup(shard_key(player_id % SHARDS))
        if shard is None:
            shards: dict[int, dict] = {number: {} for number in range(SHARDS)}
            for player, figures in _index(tournament, mark).items():
                shards[player % SHARDS][player] = figures
            for number, part in shards.items():
                store(shard_key(number), part)
            shard = shards[player_id % SHARDS]
    release(claimed)
    return shard.get(player_id)


def series_dealt(tournament: Tournament) -> set[int]:
    """The numbers of the tournament's series with a deal entered: one query."""
    games = Game.objects.filter(table__series__tournament=tournament).order_by()
    return set(games.values_list("table__series__number", flat=True).distinct())


def figures_claim(tournament: Tournament, mark: Mark) -> str:
    """The key a request claims (standings.claims) while it computes every player's figures."""
    return cache_key(tournament, mark, "player-figures-computing")


def rankings_of(registration: Registration) -> list[RankingShown]:
    """His lines in the published rankings this tournament counts for, each with every
    result of his that counted or was dropped (two queries; one when there are none)."""
    entries = RankingTournament.objects.filter(tournament_id=registration.tournament_id, ranking__public=True)
    lines = list(
        RankingLine.objects.filter(
            ranking__in=entries.values("ranking_id"), player_id=registration.player_id, category=""
        ).select_related("ranking")
    )
    if not lines:
        return []
    played = {result[0] for line in lines for result in line.results}
    held = RankingTournament.objects.filter(pk__in=played).select_related("tournament")
    tournaments = {e.pk: e.tournament for e in held.only("pk", "tournament__name", "tournament__date")}
    shown = []
    for line in lines:
        results = [
            RankingResult(tournaments[entry].name, tournaments[entry].date, series, value, counted)
            for entry, series, value, counted in line.results
            if entry in tournaments
        ]
        url = reverse("public:ranking_player", args=[line.ranking_id, line.player_id])
        shown.append(RankingShown(str(line.ranking), url, line.place, line.value, line.played, line.counted, results))
    return shown


def player_page(registration: Registration) -> PlayerPage:
    """Everything the page shows for ``registration`` (its tournament loaded with it)."""
    tournament = registration.tournament
    published = tournament.standings_public
    overall, per_series, updating = None, (), False
    if published:
        # The first page of a new mark computes its figures; the others show the mark before meanwhile.
        with computing_public_page(tournament, results_mark(tournament)) as mark:
            found = figures_of(tournament, mark, registration.player_id)
        updating = found == UPDATING
        if found and not updating:
            overall, per_series = found
    seat = seat_now(registration)
    # A series drawn and not started has no results yet (its "places" would all be ties at 0).
    waiting = seat.series if seat and seat.status == Series.Status.DRAWN else None
    return PlayerPage(
        registration=registration,
        tournament=tournament,
        published=published,
        seat=seat,
        updating=updating,
        overall=Figures(*overall) if overall else None,
        series=[(number, Figures(*figures)) for number, figures in per_series if number != waiting],
        rankings=rankings_of(registration),
    )
