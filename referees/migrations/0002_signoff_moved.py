
from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('referees', '0001_initial'),
    ]

    # The sheet's sign-off moves to scoring (the signatures of 5.5.3 belong to the
    # sheet). Only Django's idea of the models moves: the tables stay as they are, with their
    # rows, and scoring's models keep their names (db_table); scoring/0006 takes them over.
    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.RemoveField(
                    model_name='seatconfirmation',
                    name='table',
                ),
                migrations.RemoveField(
                    model_name='signoff',
                    name='table',
                ),
                migrations.DeleteModel(
                    name='PinFailure',
                ),
                migrations.DeleteModel(
                    name='SeatConfirmation',
                ),
                migrations.DeleteModel(
                    name='SignOff',
                ),
            ],
            database_operations=[],
        ),
    ]
