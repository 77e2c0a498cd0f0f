import secrets

from django.db import migrations, models


def give_keys(apps, schema_editor):
    """Every match day set up before keys existed gets its own (a hall imports it by it)."""
    MatchDay = apps.get_model("leagues", "MatchDay")
    for day in MatchDay.objects.filter(key__isnull=True).only("pk"):
        MatchDay.objects.filter(pk=day.pk).update(key=secrets.token_hex(16))


class Migration(migrations.Migration):
    dependencies = [("leagues", "0004_binding_stored_publication_removed")]

    operations = [
        migrations.AddField(
            model_name="matchday",
            name="key",
            field=models.CharField(editable=False, max_length=32, null=True, verbose_name="key"),
        ),
        migrations.RunPython(give_keys, migrations.RunPython.noop),
    ]
