"""The second list's link is unique and made with every new table (see 0006)."""

from django.db import migrations, models

import tournaments.models


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0006_table_control_token"),
    ]

    operations = [
        migrations.AlterField(
            model_name="table",
            name="control_token",
            field=models.CharField(default=tournaments.models.new_token, editable=False, max_length=32, unique=True),
        ),
    ]
