"""The results mark (scoring.models.ResultsMark), kept by database triggers.

Every change of what a tournament's standings and projector page show adds one to a
counter: a sheet's changes (games, sign-off) to the sheet's row, the rest (series,
tables, seats, registrations, teams, categories, the tournament itself, a player's
name or club, a club's name) to the tournament's row (scope 0). Triggers, like the seat
totals' (0004), so no way of writing (views, imports, the admin, raw SQL, the load
test) can forget to count. The SQL is in scoring/triggers.py, kept there as it was when
this migration was written.
"""

import django.db.models.deletion
from django.db import migrations, models

from scoring import triggers


def create_triggers(apps, schema_editor) -> None:
    triggers.create_results_mark(schema_editor)


def drop_triggers(apps, schema_editor) -> None:
    triggers.drop_results_mark(schema_editor)


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0007_lists_accepted"),
        ("tournaments", "0009_names_must_be_visible"),
    ]

    operations = [
        migrations.CreateModel(
            name="ResultsMark",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("scope", models.BigIntegerField(default=0)),
                ("version", models.BigIntegerField(default=1)),
                ("changed_at", models.DateTimeField()),
                (
                    "tournament",
                    models.ForeignKey(
                        db_constraint=False,
                        db_index=False,
                        on_delete=django.db.models.deletion.DO_NOTHING,
                        related_name="+",
                        to="tournaments.tournament",
                    ),
                ),
            ],
            options={
                "indexes": [models.Index(fields=["tournament", "version", "changed_at"], name="results_mark_sum")],
                "constraints": [
                    models.UniqueConstraint(fields=("tournament", "scope"), name="results_mark_once_per_scope")
                ],
            },
        ),
        migrations.RunPython(create_triggers, drop_triggers),
    ]
