"""A tournament's results read into the ranking (:class:`rankings.models.RankingResult`),
and which tournaments' results moved since they were read.

A correction anywhere in a tournament (a deal entered again, a referee's correction, a
seat moved) moves its results mark (scoring's triggers count every change); each
tournament of a ranking keeps the mark its results were read at, so one query finds those
to read again, whoever changed them and in whichever process.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import F, OuterRef, Q, Subquery, Sum
from django.db.models.functions import Coalesce
from django.utils import timezone

from scoring.models import ResultsMark
from standings.cache import results_mark
from standings.places import standings
from tournaments.models import Registration, Seat, Series, Tournament

from .models import Ranking, RankingResult, RankingTournament


def read_results(entry: RankingTournament) -> int:
    """Store each player's place and series of the tournament (replacing an earlier reading).

    The place is the tournament's standings' (ties by its own lot); each series holds the
    player's rating, game points and place in that series' standings. Players who sat at
    no table have no result. Three queries per series and four for the whole; the mark is
    read first, so a change while reading leaves the results to be read again.
    """
    tournament = entry.tournament
    mark = results_mark(tournament).version
    category = dict(
        Registration.objects.filter(tournament=tournament, category__isnull=False).values_list(
            "player_id", "category__name"
        )
    )
    series: dict[int, list[list[int]]] = {}
    numbers = Series.objects.filter(tournament=tournament).order_by("number").values_list("number", flat=True)
    for number in numbers:
        for row in standings(tournament, number):
            r = row.item.rating
            series.setdefault(row.item.player_id, []).append([number, r.rating, r.points, row.place])
    rows = [
        RankingResult(
            entry=entry,
            player_id=row.item.player_id,
            place=row.place,
            category=category.get(row.item.player_id, ""),
            series=series[row.item.player_id],
        )
        for row in standings(tournament)
        if row.item.player_id in series
    ]
    with transaction.atomic():
        RankingResult.objects.filter(entry=entry).delete()
        RankingResult.objects.bulk_create(rows, batch_size=1000)
        entry.read_at = timezone.now()
        entry.read_mark = mark
        entry.held = sorted({s[0] for played in series.values() for s in played})
        entry.save(update_fields=["read_at", "read_mark", "held"])
    return len(rows)


def seated(tournament: Tournament) -> tuple[list[int], int]:
    """What reading the tournament will find, without reading it: the numbers of its
    series where someone sat (those with a result) and how many players sat (those with
    a result). Two queries, where reading its results takes about a second at 3,000."""
    seats = Seat.objects.filter(series__tournament=tournament, player__isnull=False).order_by()
    numbers = sorted(set(seats.values_list("series__number", flat=True).distinct()))
    return numbers, seats.values("player_id").distinct().count()


def _with_marks(ranking: Ranking):
    """The ranking's tournaments, each with its results mark now (``mark``)."""
    marks = (
        ResultsMark.objects.filter(tournament=OuterRef("tournament"))
        .order_by()
        .values("tournament")
        .annotate(total=Sum("version"))
        .values("total")
    )
    return RankingTournament.objects.filter(ranking=ranking).annotate(mark=Coalesce(Subquery(marks), 0))


def to_read(ranking: Ranking) -> list[RankingTournament]:
    """The tournaments whose results are to be read again: asked for (no mark), or
    changed since they were read (their mark moved)."""
    rows = _with_marks(ranking).filter(Q(read_mark__isnull=True) | ~Q(mark=F("read_mark")))
    return list(rows.select_related("tournament").order_by("pk"))


def moved(ranking: Ranking) -> int:
    """Mark the tournaments whose results changed since they were read as to be read
    again; how many were (0: nothing new). One query when nothing moved."""
    pks = list(_with_marks(ranking).filter(read_mark__isnull=False).exclude(mark=F("read_mark")).values_list("pk"))
    if not pks:
        return 0
    return RankingTournament.objects.filter(pk__in=[pk for (pk,) in pks], read_mark__isnull=False).update(
        read_mark=None
    )
