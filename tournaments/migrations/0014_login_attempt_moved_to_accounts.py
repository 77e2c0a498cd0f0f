"""LoginAttempt now lives in accounts (accounts/0001): tournaments forgets it, the table stays."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0013_tournament_and_category_names_visible"),
        ("accounts", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name="LoginAttempt")],
            database_operations=[],
        ),
    ]
