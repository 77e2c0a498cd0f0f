"""The results mark's triggers again, after tournaments/0017.

tournaments/0017 added the NOT NULL column ``practice`` to tournaments_tournament; SQLite
cannot add one in place, so Django rebuilt the table and its triggers went with it
(renaming a tournament no longer moved the mark, deleting one left its mark behind), as
0009 tells for tournaments/0010. This re-creates every trigger of 0008 on SQLite;
PostgreSQL keeps them. tests/scoring/test_results_mark.py checks after a full migrate that
every trigger is there.
"""

from django.db import migrations

from scoring import triggers


def recreate(apps, schema_editor) -> None:
    triggers.recreate_on_sqlite(schema_editor)


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0011_entered_by_code"),
        ("tournaments", "0017_practice"),
    ]

    operations = [migrations.RunPython(recreate, migrations.RunPython.noop)]
