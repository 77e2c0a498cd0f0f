"""tournaments/0019: a tournament of before keeps the table money its settlements printed
(in full); a tournament created after the migration pays at most what the table collects."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("latest_schema_after")]

BEFORE = [("tournaments", "0018_birth_year_and_age_categories")]
AFTER = [("tournaments", "0019_table_money_from")]


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def test_a_tournament_of_before_pays_table_money_in_full_a_new_one_at_most_what_the_table_collects():
    latest = MigrationExecutor(connection).loader.graph.leaf_nodes()
    try:
        old = _migrate(BEFORE).get_model("tournaments", "Tournament").objects.create(name="Before", date="2026-11-01")
        apps = _migrate(AFTER)
        Tournament = apps.get_model("tournaments", "Tournament")
        assert Tournament.objects.get(pk=old.pk).table_money_from == "full"
        assert Tournament.objects.create(name="After", date="2026-12-01").table_money_from == "table"
    finally:
        _migrate(latest)
