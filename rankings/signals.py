"""What makes a ranking stale besides its own pages' changes: a tournament that counts in
it changed (its name or date: the order of the results, the tie-break "latest") or was
deleted (its entry goes with it). Connected in :class:`rankings.apps.RankingsConfig`.
A correction of a result needs no signal: it moves the tournament's results mark, which
the ranking's pages compare with the one its results were read at (rankings.reading)."""

from __future__ import annotations

from .background import changed
from .models import Ranking, RankingTournament

#: The tournament's fields the ranking reads.
READ = {"name", "date", "practice"}


def tournament_saved(sender, instance, created: bool, update_fields=None, **kwargs) -> None:
    if created or (update_fields is not None and not READ & set(update_fields)):
        return
    for ranking_id in RankingTournament.objects.filter(tournament=instance).values_list("ranking_id", flat=True):
        changed(ranking_id)


def entry_deleted(sender, instance: RankingTournament, origin=None, **kwargs) -> None:
    if isinstance(origin, Ranking):
        return  # the whole ranking goes
    changed(instance.ranking_id)
