"""The sheet's sign-off moved from scoring to signoff (migrations scoring/0014, signoff/0001):
only the state moves, so a database migrated before the move keeps every row, and the
content types (with their permissions) follow the models."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission
from django.contrib.contenttypes.models import ContentType
from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from signoff.confirm import is_signed
from signoff.models import ListsAccepted, PinFailure, SeatConfirmation, SignOff
from tournaments.models import Table

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("latest_schema_after")]

#: The office before the move: the sign-off's models were scoring's (signoff/0001, which
#: depends on scoring/0014, is unapplied with it).
BEFORE = [("scoring", "0013_results_mark_per_statement")]
MOVED = ("signoff", "seatconfirmation", "pinfailure", "listsaccepted")


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def _latest():
    return MigrationExecutor(connection).loader.graph.leaf_nodes()


def _signed_table(apps) -> int:
    """A table of three whose sheet a referee accepted over the second list and the players
    confirmed, with a wrong PIN on the way, in the old schema's own models."""
    tournament = apps.get_model("tournaments", "Tournament").objects.create(name="Before", date="2026-11-01")
    series = apps.get_model("tournaments", "Series").objects.create(tournament=tournament, number=1, seed=1)
    table = apps.get_model("tournaments", "Table").objects.create(
        series=series, number=1, size=3, token="t" * 20, control_token="c" * 20
    )
    apps.get_model("scoring", "ListsAccepted").objects.create(
        table=table, fingerprint="f" * 64, deals=[2, 5], accepted_by="ref", reason="the second list was wrong"
    )
    apps.get_model("scoring", "SeatConfirmation").objects.create(table=table, seat_number=2, fingerprint="f" * 64)
    apps.get_model("scoring", "PinFailure").objects.create(table=table, seat_number=1)
    apps.get_model("scoring", "SignOff").objects.create(table=table, fingerprint="f" * 64, confirmed_by="PINs")
    return table.pk


def _types(app_label: str) -> dict[str, int]:
    ContentType.objects.clear_cache()
    return dict(ContentType.objects.filter(app_label=app_label, model__in=MOVED).values_list("model", "pk"))


def test_no_model_change_is_left_without_a_migration():
    call_command("makemigrations", "--check", "--dry-run", verbosity=0)  # exits non-zero on a change


def test_the_tables_keep_their_names_after_a_migrate_from_zero():
    """The test database is migrated from zero: the models sit on the tables they always had."""
    tables = set(connection.introspection.table_names())
    names = {model._meta.db_table for model in (SignOff, SeatConfirmation, PinFailure, ListsAccepted)}
    assert names == {"referees_signoff", "referees_seatconfirmation", "referees_pinfailure", "scoring_listsaccepted"}
    assert names <= tables
    assert not {name for name in tables if name.startswith("signoff_")}


def test_a_database_before_the_move_keeps_its_rows_and_content_types_and_the_move_can_be_undone():
    """Forward: every row kept, with its content types and permissions. Back again: the rows
    kept on the way back too. (One test: each migrate of the whole schema costs seconds.)"""
    table_id = _signed_table(_migrate(BEFORE))
    old_types = _types("scoring")
    assert set(old_types) == set(MOVED)  # the old office had them (the way back relabelled them)
    permissions = set(Permission.objects.filter(content_type_id__in=old_types.values()).values_list("pk", flat=True))
    assert len(permissions) == 16  # add, change, delete, view of each of the four models

    _migrate(_latest())

    table = Table.objects.get(pk=table_id)
    signoff = SignOff.objects.get(table=table)
    assert (signoff.fingerprint, signoff.confirmed_by, signoff.on_paper) == ("f" * 64, "PINs", False)
    assert list(SeatConfirmation.objects.filter(table=table).values_list("seat_number", flat=True)) == [2]
    assert list(PinFailure.objects.filter(table=table).values_list("seat_number", flat=True)) == [1]
    accepted = ListsAccepted.objects.get(table=table)
    assert (accepted.deals, accepted.accepted_by) == ([2, 5], "ref")
    assert is_signed(table)
    # The content types (and the permissions hanging on them) moved with the models.
    assert _types("signoff") == old_types
    assert _types("scoring") == {}
    assert ContentType.objects.get_for_model(SignOff).pk == old_types["signoff"]
    moved = set(Permission.objects.filter(content_type__app_label="signoff").values_list("pk", flat=True))
    assert moved == permissions

    # The way back.
    SignOff.objects.filter(table_id=table_id).update(confirmed_by="moved and back")
    old = _migrate(BEFORE)
    assert old.get_model("scoring", "SignOff").objects.get(table_id=table_id).confirmed_by == "moved and back"
    assert old.get_model("scoring", "ListsAccepted").objects.get(table_id=table_id).deals == [2, 5]
    assert set(_types("scoring")) == set(MOVED)
    assert _types("signoff") == {}

    # Forward again, deployed as "pull, restart, migrate": the new code may make signoff's
    # content type for SignOff before the migration relabels the old one; the old one wins.
    old_type = _types("scoring")["signoff"]
    ContentType.objects.create(app_label="signoff", model="signoff")
    _migrate(_latest())  # the rest of the suite runs on the latest schema
    assert _types("signoff")["signoff"] == old_type
    assert ContentType.objects.filter(model="signoff").count() == 1
