"""The results mark: how often what a tournament's standings show has changed.

Database triggers (migration scoring/0008) count every change of what the standings
and the projector page show: a game entered, corrected, voided or deleted, a sheet
confirmed, a series drawn, finished or redrawn, a seat, a withdrawal, a category, a
team, a player's name or club. The sum of a tournament's counters is its results
version, read in one query (:func:`standings.cache.results_mark`); the public
pages are cached under it and sent with it as their ETag.

A sheet's changes count in the sheet's own row (scope = the table's id) and everything
else in the tournament's row (scope 0), so two tables entering deals at once never wait
for one row on PostgreSQL. Each change adds one to one row, so the sum grows with
every committed change, in whatever order concurrent changes commit.
"""

from __future__ import annotations

from django.db import models


class ResultsMark(models.Model):
    """One counter of changes, for a tournament's table (``scope`` = its id) or the rest (0).

    Written only by the triggers. No foreign key constraint: a game deleted with its
    table still counts into its row, and the tournament's delete trigger removes them.
    """

    tournament = models.ForeignKey(
        "tournaments.Tournament", on_delete=models.DO_NOTHING, db_constraint=False, db_index=False, related_name="+"
    )
    scope = models.BigIntegerField(default=0)
    version = models.BigIntegerField(default=1)
    changed_at = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["tournament", "scope"], name="results_mark_once_per_scope")]
        # Covers the one query that reads the mark: SUM(version), MAX(changed_at) of a tournament.
        indexes = [models.Index(fields=["tournament", "version", "changed_at"], name="results_mark_sum")]

    def __str__(self) -> str:
        return f"{self.tournament_id}/{self.scope}: {self.version}"
