import leagues.models
from django.db import migrations, models


class Migration(migrations.Migration):
    """Apart from 0005: PostgreSQL alters no table with rows updated in the same transaction."""

    dependencies = [("leagues", "0005_match_day_key")]

    operations = [
        migrations.AlterField(
            model_name="matchday",
            name="key",
            field=models.CharField(
                default=leagues.models.new_match_day_key,
                editable=False,
                max_length=32,
                unique=True,
                verbose_name="key",
            ),
        ),
    ]
