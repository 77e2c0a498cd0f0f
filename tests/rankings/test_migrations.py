"""A database from before the background computation (rankings/0002): its tournaments
already read keep their reading (the series held, the results mark of the day), so the
upgrade reads nothing again until a later correction."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from rankings.models import Ranking, RankingTournament
from scoring.models import ResultsMark

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("latest_schema_after")]


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def test_a_ranking_read_before_keeps_its_reading_and_is_not_stale():
    apps = _migrate([("rankings", "0001_initial")])
    tournament = apps.get_model("tournaments", "Tournament").objects.create(name="Before", date="2026-11-01")
    player = apps.get_model("tournaments", "Player").objects.create(name="Anna Alt")
    ranking = apps.get_model("rankings", "Ranking").objects.create(name="JW", computed_at="2026-11-02T10:00Z")
    entries = apps.get_model("rankings", "RankingTournament")
    read = entries.objects.create(ranking=ranking, tournament=tournament, read_at="2026-11-02T10:00Z")
    later = apps.get_model("tournaments", "Tournament").objects.create(name="Later", date="2026-12-01")
    unread = entries.objects.create(ranking=ranking, tournament=later)
    apps.get_model("rankings", "RankingResult").objects.create(
        entry=read, player=player, place=1, series=[[1, 98, 48, 1], [3, 0, 0, 2]]
    )
    mark = ResultsMark.objects.filter(tournament_id=tournament.pk).values_list("version", flat=True)
    before = sum(mark)

    _migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())

    entry = RankingTournament.objects.get(pk=read.pk)
    assert entry.held == [1, 3] and entry.read_mark == before
    assert RankingTournament.objects.get(pk=unread.pk).read_mark is None  # never read: read when computed
    assert not Ranking.objects.get(pk=ranking.pk).updating
