"""League, group, team and host names unique in any case ("Staffel 1" and "STAFFEL 1"
are one name, as the setup pages already check): two managers adding the same name in
different case at the same moment got both saved. Names that are already twins of
another in the same place get " (2)", " (3)" ... before the constraint is made."""

import django.db.models.functions.text
from django.conf import settings
from django.db import migrations, models


#: (model, the fields the name is unique within)
PLACES = [("league", ("season",)), ("group", ("league_id",)), ("leagueteam", ("group_id",)), ("host", ("league_id",))]


def rename_twins(apps, schema_editor):
    for model_name, within in PLACES:
        model = apps.get_model("leagues", model_name)
        limit = model._meta.get_field("name").max_length
        rows = list(model.objects.order_by("pk"))
        taken = {(*(getattr(row, f) for f in within), row.name.lower()) for row in rows}
        seen: set = set()
        for row in rows:
            place = tuple(getattr(row, f) for f in within)
            if (*place, row.name.lower()) not in seen:
                seen.add((*place, row.name.lower()))
                continue
            number = 2
            while True:
                suffix = f" ({number})"
                name = row.name[: limit - len(suffix)] + suffix
                if (*place, name.lower()) not in taken:
                    break
                number += 1
            taken.add((*place, name.lower()))
            seen.add((*place, name.lower()))
            model.objects.filter(pk=row.pk).update(name=name)


class Migration(migrations.Migration):
    dependencies = [
        ("leagues", "0001_initial"),
        ("tournaments", "0010_list_fee_refund"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RemoveConstraint(
            model_name="group",
            name="group_name_unique",
        ),
        migrations.RemoveConstraint(
            model_name="host",
            name="host_name_unique",
        ),
        migrations.RemoveConstraint(
            model_name="league",
            name="league_name_season_unique",
        ),
        migrations.RemoveConstraint(
            model_name="leagueteam",
            name="league_team_name_unique",
        ),
        migrations.RunPython(rename_twins, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="group",
            constraint=models.UniqueConstraint(
                models.F("league"),
                django.db.models.functions.text.Lower("name"),
                name="group_name_unique",
                violation_error_message="The league has a group of this name already.",
            ),
        ),
        migrations.AddConstraint(
            model_name="host",
            constraint=models.UniqueConstraint(
                models.F("league"),
                django.db.models.functions.text.Lower("name"),
                name="host_name_unique",
                violation_error_message="The league has a host of this name already.",
            ),
        ),
        migrations.AddConstraint(
            model_name="league",
            constraint=models.UniqueConstraint(
                django.db.models.functions.text.Lower("name"),
                models.F("season"),
                name="league_name_season_unique",
                violation_error_message="This league has this season already.",
            ),
        ),
        migrations.AddConstraint(
            model_name="leagueteam",
            constraint=models.UniqueConstraint(
                models.F("group"),
                django.db.models.functions.text.Lower("name"),
                name="league_team_name_unique",
                violation_error_message="The group has a team of this name already.",
            ),
        ),
    ]
