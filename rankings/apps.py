from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RankingsConfig(AppConfig):
    name = "rankings"
    verbose_name = _("Rankings")

    def ready(self) -> None:
        from django.db.models.signals import post_delete, post_save

        from tournaments.models import Tournament

        from .models import RankingTournament
        from .signals import entry_deleted, tournament_saved

        post_save.connect(tournament_saved, sender=Tournament, dispatch_uid="rankings.tournament_saved")
        post_delete.connect(entry_deleted, sender=RankingTournament, dispatch_uid="rankings.entry_deleted")
