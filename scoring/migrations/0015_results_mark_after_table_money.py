"""The results mark's triggers again, after tournaments/0019.

tournaments/0019 added the NOT NULL column ``table_money_from`` to tournaments_tournament;
SQLite cannot add one in place, so Django rebuilt the table and its triggers went with it,
as 0012 tells for tournaments/0017. This re-creates them on SQLite; PostgreSQL keeps them.
tests/scoring/test_results_mark.py checks after a full migrate that every trigger is there.
"""

from django.db import migrations

from scoring import triggers


def recreate(apps, schema_editor) -> None:
    triggers.recreate_on_sqlite(schema_editor)


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0014_signoff_moved"),
        ("tournaments", "0019_table_money_from"),
    ]

    operations = [migrations.RunPython(recreate, migrations.RunPython.noop)]
