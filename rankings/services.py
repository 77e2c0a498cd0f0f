"""A ranking's tournaments: adding one (played or imported from a tournament file),
reading its results, taking it out. Each change asks for the ranking to be computed
again in the background (:mod:`rankings.background`); the pages read the stored lines."""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from tournaments.models import Tournament

from . import background
from .compute import check_held
from .models import Ranking, RankingTournament
from .reading import read_results, seated

__all__ = ["Added", "RankingRefused", "add_tournament", "read_results", "refresh", "remove_tournament"]


class RankingRefused(ValueError):
    """A change to a ranking that is refused; the message says why, for the director."""


@dataclass
class Added:
    entry: RankingTournament
    players: int
    #: Doubtful matches of the whole ranking as last computed (waiting for the director).
    doubtful: int


def add_tournament(ranking: Ranking, tournament: Tournament, user) -> Added:
    """Add a tournament; its results are read and the ranking computed in the background.
    Refused when it is in the ranking already (saying since when), when it is a practice
    tournament (a rehearsal), or when the ranking cannot take it (more held than planned,
    from the series where someone sat: :func:`rankings.reading.seated`)."""
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
        held, players = seated(tournament)
        entry = RankingTournament.objects.create(ranking=ranking, tournament=tournament, added_by=user, held=held)
        problem = check_held(ranking)
        if problem:
            raise RankingRefused(
                _("%(tournament)s was not added: %(problem)s") % {"tournament": tournament, "problem": problem}
            )
        background.changed(ranking)
    ranking.refresh_from_db(fields=["doubtful"])
    return Added(entry, players, ranking.doubtful)


def refresh(ranking: Ranking) -> int:
    """Ask for every tournament's results to be read again and the ranking computed, in
    the background; how many tournaments will be read."""
    with transaction.atomic():
        background.changed(ranking, read_again=True)
    return RankingTournament.objects.filter(ranking=ranking).count()


def remove_tournament(entry: RankingTournament) -> None:
    """Take a tournament out; the ranking is computed without it in the background (the
    entry's delete counts as a change: rankings.apps)."""
    entry.delete()
