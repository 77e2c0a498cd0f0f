"""Drop the database cache table the login throttle used to keep its counts in.

The throttle now counts in tournaments.LoginAttempt (0003) and nothing else used the
cache, so settings.CACHES and the post_migrate hook that created this table are gone.
IF EXISTS: fresh installs never had it. Reversing leaves it absent: the older code's
own post_migrate hook creates it again on `migrate`.
"""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0003_login_attempt"),
    ]

    operations = [
        migrations.RunSQL("DROP TABLE IF EXISTS skat_office_cache", reverse_sql=migrations.RunSQL.noop),
    ]
