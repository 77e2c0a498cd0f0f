"""The results mark's triggers again, after tournaments/0010.

SQLite cannot add a NOT NULL column with a default in place: Django rebuilds the table
(create, copy, drop, rename), and the old table's triggers go with it. tournaments/0010
rebuilt tournaments_tournament after scoring/0008 had put its triggers there, so a
database migrated in that order lost them (renaming a tournament no longer moved the
mark, deleting one left its mark behind). This re-creates every trigger of 0008 on
SQLite; PostgreSQL's ALTER TABLE keeps triggers and is left alone.
tests/scoring/test_results_mark.py checks after a full migrate that every trigger is
there, so the next migration that rebuilds one of these tables needs the same step.
"""

import importlib

from django.db import migrations

MARK = importlib.import_module("scoring.migrations.0008_results_mark")


def recreate(apps, schema_editor) -> None:
    if schema_editor.connection.vendor != "sqlite":
        return
    for statement in [*MARK.sqlite_down(), *MARK.sqlite_up()]:
        schema_editor.execute(statement, params=None)


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0008_results_mark"),
        ("tournaments", "0010_list_fee_refund"),
    ]

    operations = [migrations.RunPython(recreate, migrations.RunPython.noop)]
