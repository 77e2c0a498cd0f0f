"""The sheet's sign-off moved from referees to scoring (migrations referees/0002, scoring/0006),
later on to signoff (tests/signoff/test_migrations.py):
a database migrated from the office before the first move keeps every row, games included."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission
from django.contrib.contenttypes.models import ContentType
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from scoring.models import Game, SeatTotal
from signoff.confirm import is_signed
from signoff.models import PinFailure, SeatConfirmation, SignOff
from tournaments.models import Table

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("latest_schema_after")]

#: The office before the sign-off's models moved from referees to scoring.
BEFORE = [
    ("tournaments", "0007_table_control_token_unique"),
    ("scoring", "0005_control_entry"),
    ("referees", "0001_initial"),
]


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def _latest():
    return MigrationExecutor(connection).loader.graph.leaf_nodes()


def _played_table(apps) -> int:
    """A table of three with two deals on its sheet, in the old schema's own models."""
    tournament = apps.get_model("tournaments", "Tournament").objects.create(name="Before", date="2026-11-01")
    series = apps.get_model("tournaments", "Series").objects.create(tournament=tournament, number=1, seed=1)
    table = apps.get_model("tournaments", "Table").objects.create(
        series=series, number=1, size=3, token="t" * 20, control_token="c" * 20
    )
    Player = apps.get_model("tournaments", "Player")
    Seat = apps.get_model("tournaments", "Seat")
    for number in (1, 2, 3):
        player = Player.objects.create(name=f"Player {number}")
        Seat.objects.create(table=table, series=series, number=number, player=player)
    OldGame = apps.get_model("scoring", "Game")
    OldGame.objects.create(table=table, number=1, dealer_seat=1, passed_out=True)
    OldGame.objects.create(
        table=table, number=2, dealer_seat=2, declarer_seat=3, contract="grand", tops=1, tops_kind="with",
        declarer_points=70, value=48, score=48, won=True, multiplier=2,
    )  # fmt: skip
    apps.get_model("referees", "SignOff").objects.create(table=table, fingerprint="f" * 64, confirmed_by="PINs")
    apps.get_model("referees", "SeatConfirmation").objects.create(table=table, seat_number=2, fingerprint="f" * 64)
    apps.get_model("referees", "PinFailure").objects.create(table=table, seat_number=1)
    return table.pk


def test_sign_offs_confirmations_and_pin_failures_keep_their_rows_and_the_move_can_be_undone():
    """Forward: every row kept, with its content type and permissions. Back again: the rows
    kept on the way back too. (One test: each migrate of the whole schema costs seconds.)"""
    table_id = _played_table(_migrate(BEFORE))
    ContentType.objects.clear_cache()
    old_type = ContentType.objects.filter(app_label="referees", model="signoff").first()
    assert old_type is not None  # the old office had it (the way back relabelled it)
    permissions = set(Permission.objects.filter(content_type=old_type).values_list("pk", flat=True))

    _migrate(_latest())
    ContentType.objects.clear_cache()

    table = Table.objects.get(pk=table_id)
    signoff = SignOff.objects.get(table=table)
    assert (signoff.fingerprint, signoff.confirmed_by, signoff.on_paper) == ("f" * 64, "PINs", False)
    assert list(SeatConfirmation.objects.filter(table=table).values_list("seat_number", flat=True)) == [2]
    assert PinFailure.objects.filter(table=table, seat_number=1).count() == 1
    assert is_signed(table)
    # The games and the seat totals their triggers keep are untouched.
    assert list(Game.objects.filter(table=table).values_list("number", "score")) == [(1, 0), (2, 48)]
    assert list(SeatTotal.objects.filter(table=table).values_list("number", "points", "won")) == [(3, 48, 1)]
    # The content type (and the permissions hanging on it) moved with the model.
    new_type = ContentType.objects.get_for_model(SignOff)
    assert new_type.pk == old_type.pk
    assert not ContentType.objects.filter(app_label="referees", model__in=["signoff", "pinfailure"]).exists()
    assert set(Permission.objects.filter(content_type=new_type).values_list("pk", flat=True)) == permissions

    # The way back.
    SignOff.objects.filter(table_id=table_id).update(confirmed_by="moved and back")
    old = _migrate(BEFORE)
    ContentType.objects.clear_cache()
    assert old.get_model("referees", "SignOff").objects.get(table_id=table_id).confirmed_by == "moved and back"
    assert ContentType.objects.filter(app_label="referees", model="signoff").exists()
    assert not ContentType.objects.filter(app_label="scoring", model="signoff").exists()

    # Forward again, deployed as "pull, restart, migrate": the new code may make scoring's
    # content type for SignOff before the migration relabels the old one; the old one wins.
    old_type = ContentType.objects.get(app_label="referees", model="signoff")
    ContentType.objects.create(app_label="scoring", model="signoff")
    _migrate(_latest())  # the rest of the suite runs on the latest schema
    ContentType.objects.clear_cache()
    assert ContentType.objects.get_for_model(SignOff).pk == old_type.pk
    assert ContentType.objects.filter(model="signoff").count() == 1
