"""A ranking's tournaments: adding one (played or imported from a tournament file),
reading its results, taking it out. Each change computes the ranking again
(:func:`rankings.compute.compute_lines`), so the pages only read stored lines."""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from standings.places import standings
from tournaments.models import Registration, Series, Tournament

from .compute import compute_lines
from .models import Ranking, RankingResult, RankingTournament


class RankingRefused(ValueError):
    """A change to a ranking that is refused; the message says why, for the director."""


@dataclass
class Added:
    entry: RankingTournament
    players: int
    #: Doubtful matches of the whole ranking after the addition (waiting for the director).
    doubtful: int


def read_results(entry: RankingTournament) -> int:
    """Store each player's place and series of the tournament (replacing an earlier reading).

    The place is the tournament's standings' (ties by its own lot); each series holds the
    player's rating, game points and place in that series' standings. Players who sat at
    no table have no result. Three queries per series and three for the whole.
    """
    tournament = entry.tournament
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
        entry.save(update_fields=["read_at"])
    return len(rows)


def add_tournament(ranking: Ranking, tournament: Tournament, user) -> Added:
    """Add a tournament, read its results and compute the ranking; refused when it is in the
    ranking already (saying since when), when it is a practice tournament (a rehearsal), or
    when the ranking cannot take it (its rules)."""
    if tournament.practice:
        raise RankingRefused(
            _("%(tournament)s is a practice tournament (a rehearsal): its results count in no ranking.")
            % {"tournament": tournament}
        )
    existing = RankingTournament.objects.filter(ranking=ranking, tournament=tournament).first()
    if existing is not None:
        raise RankingRefused(
            _("%(tournament)s is in this ranking already (added on %(date)s): a tournament counts once.")
            % {"tournament": tournament, "date": date_format(timezone.localtime(existing.added_at), "DATE_FORMAT")}
        )
    with transaction.atomic():
        entry = RankingTournament.objects.create(ranking=ranking, tournament=tournament, added_by=user)
        players = read_results(entry)
        problem = compute_lines(ranking)
        if problem:
            raise RankingRefused(
                _("%(tournament)s was not added: %(problem)s") % {"tournament": tournament, "problem": problem}
            )
    return Added(entry, players, ranking.doubtful)


def refresh(ranking: Ranking) -> int:
    """Read every tournament's results again (after a correction) and compute the ranking."""
    entries = list(RankingTournament.objects.filter(ranking=ranking).select_related("tournament"))
    with transaction.atomic():
        for entry in entries:
            read_results(entry)
        compute_lines(ranking)
    return len(entries)


def remove_tournament(entry: RankingTournament) -> None:
    ranking = entry.ranking
    with transaction.atomic():
        entry.delete()
        compute_lines(ranking)
