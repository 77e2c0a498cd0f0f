"""Seat totals, kept by database triggers on the games (see scoring.models.SeatTotal).

The triggers add a game's score, won and lost to its declarer's seat row when the game
is inserted, take them away when it is deleted, and both when it is updated, in the
same transaction as the game (their SQL: scoring/triggers.py). The existing games are
summed into the new table once.
"""

import django.db.models.deletion
from django.db import migrations, models

from scoring import triggers


def create_triggers(apps, schema_editor) -> None:
    triggers.create_seat_totals(schema_editor)


def sum_stored_games(apps, schema_editor) -> None:
    """The games already stored, summed once; from now on the triggers keep the sums."""
    Game = apps.get_model("scoring", "Game")
    SeatTotal = apps.get_model("scoring", "SeatTotal")
    totals = {}
    for table_id, seat, score, won, lost in (
        Game.objects.filter(declarer_seat__isnull=False)
        .values_list("table_id", "declarer_seat", "score", "won", "lost")
        .iterator(chunk_size=5000)
    ):
        entry = totals.setdefault((table_id, seat), [0, 0, 0])
        entry[0] += score
        entry[1] += int(won)
        entry[2] += int(lost)
    SeatTotal.objects.bulk_create(
        [SeatTotal(table_id=t, number=n, points=p, won=w, lost=x) for (t, n), (p, w, x) in totals.items()],
        batch_size=1000,
    )


def drop_triggers(apps, schema_editor) -> None:
    triggers.drop_seat_totals(schema_editor)


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0003_game_irregularity_voided"),
        ("tournaments", "0002_fee_rules"),
    ]

    operations = [
        migrations.CreateModel(
            name="SeatTotal",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("number", models.PositiveSmallIntegerField(verbose_name="seat")),
                ("points", models.IntegerField(default=0, verbose_name="game points")),
                ("won", models.IntegerField(default=0, verbose_name="won")),
                ("lost", models.IntegerField(default=0, verbose_name="lost")),
                (
                    "table",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE, related_name="seat_totals", to="tournaments.table"
                    ),
                ),
            ],
            options={
                "verbose_name": "seat total",
                "verbose_name_plural": "seat totals",
                "constraints": [models.UniqueConstraint(fields=("table", "number"), name="seat_total_once_per_seat")],
            },
        ),
        migrations.RunPython(create_triggers, drop_triggers),
        migrations.RunPython(sum_stored_games, migrations.RunPython.noop),
    ]
