"""What the player's own page shows: where he sits now, his results, his place, his rankings.

Right after a draw 3,000 phones ask at once (about 50 a second for a minute), so a page
costs a handful of indexed queries and one cache read: his seat is read fresh from the
database (a seat changed after the draw shows at once), his figures come from one index
of every player's figures kept in the standings cache under the settled results mark
(standings.cache: computed once per change of the results, shared by every worker).

Unpublished standings stay unpublished: the page then shows the seat, never a place or a
result (the director publishes them under Rules and fees). The table's entry link is
never on the page: it is the scorekeeper's, not the player's (the page is not the table).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.urls import reverse

from rankings.models import RankingLine, RankingTournament
from standings.cache import Mark, cache_key, cached, results_mark, settled_mark
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
    """His table and seat in the newest series and who sits with him (three queries at most;
    None before the first draw). Read fresh: a seat swapped after the draw shows at once."""
    series = Series.objects.filter(tournament_id=registration.tournament_id).order_by("-number").first()
    if series is None:
        return None
    mine = Seat.objects.filter(series=series, player_id=registration.player_id).select_related("table").first()
    if mine is None:
        return SeatNow(series.number, series.status)
    seats = Seat.objects.filter(table_id=mine.table_id).order_by("number").values_list("number", "player_id", "player__name")
    numbers = dict(
        Registration.objects.filter(
            tournament_id=registration.tournament_id, player__seats__table_id=mine.table_id
        ).values_list("player_id", "start_number")
    )
    mates = tuple(
        Mate(number, name, numbers.get(player), player == registration.player_id) for number, player, name in seats
    )
    return SeatNow(series.number, series.status, mine.table.number, mine.number, mates)


def _figures(row: dict) -> Figures:
    return Figures(
        row["place"], row["rating"], row["points"], row["won"], row["lost"], row["tables"], row["unconfirmed"]
    )


def figures_index(tournament: Tournament, mark: Mark) -> dict[int, tuple[Figures | None, dict[int, Figures]]]:
    """Every player's overall figures and his figures per series: {player id: (overall,
    {series: figures})}, computed once per results mark from the standings' boards (each
    cached too), so 3,000 pages read one entry."""

    def compute() -> dict:
        index: dict[int, tuple[Figures | None, dict[int, Figures]]] = {}
        for row in board(tournament, mark, Scope()).rows:
            index[row["player_id"]] = (_figures(row), {})
        numbers = tournament.series.order_by("number").values_list("number", flat=True)
        for number in numbers:
            for row in board(tournament, mark, Scope(series_number=number)).rows:
                index.setdefault(row["player_id"], (None, {}))[1][number] = _figures(row)
        return index

    return cached(cache_key(tournament, mark, "player-figures"), compute)


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
    overall, per_series = None, {}
    if published:
        mark = settled_mark(tournament, results_mark(tournament))
        overall, per_series = figures_index(tournament, mark).get(registration.player_id, (None, {}))
    return PlayerPage(
        registration=registration,
        tournament=tournament,
        published=published,
        seat=seat_now(registration),
        overall=overall,
        series=sorted(per_series.items()),
        rankings=rankings_of(registration),
    )
