
import django.db.models.deletion
from django.db import migrations, models


MODELS = ("signoff", "seatconfirmation", "pinfailure")
FROM, TO = "referees", "scoring"


def relabel(old: str, new: str):
    def run(apps, schema_editor):
        types = apps.get_model("contenttypes", "ContentType").objects.using(schema_editor.connection.alias)
        for model in MODELS:
            if not types.filter(app_label=old, model=model).exists():
                continue
            # New code that ran before this migration (the admin's history page, say) may
            # have made an empty content type under the new label: the old one, with the
            # permissions and admin log entries hanging on it, is the one to keep.
            types.filter(app_label=new, model=model).delete()
            types.filter(app_label=old, model=model).update(app_label=new)

    return run


class Migration(migrations.Migration):

    dependencies = [
        ('contenttypes', '0002_remove_content_type_name'),
        ('referees', '0002_signoff_moved'),
        ('scoring', '0005_control_entry'),
        ('tournaments', '0007_table_control_token_unique'),
    ]

    # The sheet's sign-off, taken over from the referees app: its tables keep their
    # names and rows (db_table), so only the state moves, and the content types (with the
    # permissions that hang on them) are relabelled so nothing is left behind under referees.
    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='SignOff',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('confirmed_at', models.DateTimeField(auto_now_add=True, verbose_name='confirmed at')),
                        ('on_paper', models.BooleanField(default=False, verbose_name='signed on paper')),
                        ('confirmed_by', models.CharField(blank=True, max_length=150, verbose_name='confirmed by')),
                        ('fingerprint', models.CharField(help_text='The sheet as confirmed (see signoff.confirm).', max_length=64)),
                        ('table', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='signoff', to='tournaments.table')),
                    ],
                    options={
                        'verbose_name': 'sign-off',
                        'verbose_name_plural': 'sign-offs',
                        'db_table': 'referees_signoff',
                    },
                ),
                migrations.CreateModel(
                    name='PinFailure',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('seat_number', models.PositiveSmallIntegerField(blank=True, null=True)),
                        ('at', models.DateTimeField(auto_now_add=True, db_index=True)),
                        ('table', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='pin_failures', to='tournaments.table')),
                    ],
                    options={
                        'db_table': 'referees_pinfailure',
                        'ordering': ['-at'],
                        'indexes': [models.Index(fields=['table', 'at'], name='pin_failure_table_at')],
                    },
                ),
                migrations.CreateModel(
                    name='SeatConfirmation',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('seat_number', models.PositiveSmallIntegerField(verbose_name='seat')),
                        ('fingerprint', models.CharField(max_length=64)),
                        ('confirmed_at', models.DateTimeField(auto_now_add=True)),
                        ('table', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='seat_confirmations', to='tournaments.table')),
                    ],
                    options={
                        'verbose_name': "player's confirmation",
                        'verbose_name_plural': "players' confirmations",
                        'db_table': 'referees_seatconfirmation',
                        'ordering': ['table', 'seat_number'],
                        'constraints': [models.UniqueConstraint(fields=('table', 'seat_number', 'fingerprint'), name='seat_confirms_sheet_once')],
                    },
                ),
            ],
            database_operations=[],
        ),
        migrations.RunPython(relabel(FROM, TO), relabel(TO, FROM)),
    ]
