"""LoginAttempt moves here from tournaments with its table (tournaments_loginattempt): the
state only, the database keeps the table, its rows and its index as they are."""

from django.db import migrations, models


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("tournaments", "0013_tournament_and_category_names_visible"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="LoginAttempt",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        ("key", models.CharField(max_length=72)),
                        ("created", models.DateTimeField(db_index=True)),
                        ("pending", models.BooleanField(default=False)),
                    ],
                    options={
                        "db_table": "tournaments_loginattempt",
                        "indexes": [models.Index(fields=["key", "created"], name="login_attempt_key_created")],
                    },
                ),
            ],
            database_operations=[],
        ),
    ]
