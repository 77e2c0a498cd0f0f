"""The keys of names written in other alphabets, folded anew (tournaments.names: anyascii,
ø and å): "Lukasz" finds "Łukasz Wójcik" in players entered before.

Only names with a letter beyond ASCII are touched. A registration's identity key is
renewed with its namesake number kept; where the new key is taken in that tournament
(two registrations that only now read alike) the old key stays, so nothing is refused.
"""

from django.db import migrations

from tournaments.names import identity_key, search_key, sort_key


def refold(apps, schema_editor):
    Player = apps.get_model("tournaments", "Player")
    Registration = apps.get_model("tournaments", "Registration")
    players = [p for p in Player.objects.only("id", "name") if not p.name.isascii()]
    for player in players:
        player.search_key = search_key(player.name)[:400]
        player.sort_key = sort_key(player.name)
    Player.objects.bulk_update(players, ["search_key", "sort_key"], batch_size=1000)
    ids = [p.id for p in players]
    registrations = Registration.objects.filter(player_id__in=ids).exclude(identity_key="")
    taken = set(
        Registration.objects.filter(tournament_id__in=registrations.values("tournament_id"))
        .exclude(identity_key="")
        .values_list("tournament_id", "identity_key")
    )
    changed = []
    for registration in registrations.select_related("player"):
        _old, hash_, number = registration.identity_key.partition("#")
        key = identity_key(registration.player.name, registration.player.club_id) + (hash_ + number)
        if key != registration.identity_key and (registration.tournament_id, key) not in taken:
            taken.add((registration.tournament_id, key))
            registration.identity_key = key
            changed.append(registration)
    Registration.objects.bulk_update(changed, ["identity_key"], batch_size=1000)


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0014_login_attempt_moved_to_accounts")]

    operations = [migrations.RunPython(refold, migrations.RunPython.noop, elidable=True)]
