"""PostgreSQL counts the results mark once per statement on inserts and deletes.

Per row, a draw's bulk insert of 9,000 seats updated the tournament's mark row 9,000
times in one transaction and took 16.5 s (scoring.triggers.results_mark_per_statement_postgres_up
says why). SQLite is left as it is: it updates the row in place.
"""

from django.db import migrations

from scoring import triggers


def forward(apps, schema_editor) -> None:
    triggers.count_per_statement(schema_editor)


def backward(apps, schema_editor) -> None:
    triggers.count_per_row(schema_editor)


class Migration(migrations.Migration):
    dependencies = [("scoring", "0012_results_mark_after_practice")]

    operations = [migrations.RunPython(forward, backward)]
