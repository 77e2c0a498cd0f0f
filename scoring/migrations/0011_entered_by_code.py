"""``entered_by`` of the table link's deals as a code ("table-link"), not in the phone's
language: the deals entered before this stored "table link" or "Tisch-Link"."""

from django.db import migrations

#: What the table link wrote before, in the languages the office speaks.
OLD = ("table link", "Tisch-Link")


def to_code(apps, schema_editor) -> None:
    for name in ("Game", "ControlEntry"):
        apps.get_model("scoring", name).objects.filter(entered_by__in=OLD).update(entered_by="table-link")


class Migration(migrations.Migration):
    dependencies = [("scoring", "0010_conflicting_entry")]

    operations = [migrations.RunPython(to_code, migrations.RunPython.noop)]
