"""The guess limit (accounts/guesses.py) counts its failures in the database, one row each,
instead of a list in the file cache that parallel failures overwrote. The cache's lists
are not carried over: they expire with their window (LEAGUE_TOKEN_WINDOW, 10 minutes)."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('accounts', '0001_initial'),
    ]

    operations = [
        migrations.CreateModel(
            name='GuessFailure',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('purpose', models.CharField(max_length=40)),
                ('client', models.CharField(max_length=64)),
                ('created', models.DateTimeField(db_index=True)),
            ],
            options={
                'indexes': [models.Index(fields=['purpose', 'client', 'created'], name='guess_failure_client_created')],
            },
        ),
    ]
