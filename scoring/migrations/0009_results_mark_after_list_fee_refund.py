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

from django.db import migrations

from scoring import triggers


def recreate(apps, schema_editor) -> None:
    triggers.recreate_on_sqlite(schema_editor)


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0008_results_mark"),
        ("tournaments", "0010_list_fee_refund"),
    ]

    operations = [migrations.RunPython(recreate, migrations.RunPython.noop)]
