"""Every table gets a second link, for the second list kept at the table (scoring.lists).

Added empty and filled with a fresh token per existing table (a callable default would
give all existing rows the same value); 0007 makes it unique, in a migration (and so a
PostgreSQL transaction) of its own, apart from the rows written here.
"""

import secrets

from django.db import migrations, models


def fill_tokens(apps, schema_editor):
    Table = apps.get_model("tournaments", "Table")
    tables = list(Table.objects.filter(control_token__isnull=True).only("pk"))
    for table in tables:
        table.control_token = secrets.token_urlsafe(16)
    Table.objects.bulk_update(tables, ["control_token"], batch_size=1000)


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0005_prize_table"),
    ]

    operations = [
        migrations.AddField(
            model_name="table",
            name="control_token",
            field=models.CharField(editable=False, max_length=32, null=True),
        ),
        migrations.RunPython(fill_tokens, migrations.RunPython.noop),
    ]
