from django.apps import AppConfig
from django.db.models.signals import post_migrate


def create_cache_table(sender, using: str = "default", **kwargs) -> None:
    """`migrate` also creates the DatabaseCache table (settings.CACHES), so a fresh
    install, `make run` and the test database need no extra `createcachetable` step."""
    from django.core.management import call_command

    call_command("createcachetable", database=using, verbosity=0)


class TournamentsConfig(AppConfig):
    name = "tournaments"

    def ready(self) -> None:
        post_migrate.connect(create_cache_table, sender=self, dispatch_uid="tournaments_create_cache_table")
