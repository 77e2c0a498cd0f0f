"""The sheet's sign-off moved from scoring to the signoff app, beside its logic.

Only Django's idea of the models moves: the tables stay as they are, with their rows and
their names (``referees_signoff``, ``referees_seatconfirmation``, ``referees_pinfailure``
from the first move, ``scoring_listsaccepted``); signoff/0001 takes the models over and
relabels their content types.
"""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('scoring', '0013_results_mark_per_statement'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.RemoveField(
                    model_name='pinfailure',
                    name='table',
                ),
                migrations.RemoveField(
                    model_name='seatconfirmation',
                    name='table',
                ),
                migrations.RemoveField(
                    model_name='signoff',
                    name='table',
                ),
                migrations.RemoveField(
                    model_name='listsaccepted',
                    name='table',
                ),
                migrations.DeleteModel(
                    name='ListsAccepted',
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
