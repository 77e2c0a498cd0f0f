from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SeasonsConfig(AppConfig):
    name = "leagues.seasons"
    # Nested in the league's folder; the label keeps the tables' names and the migrations.
    label = "seasons"
    verbose_name = _("Seasons")

    def ready(self) -> None:
        # The league tables ask this app for forfeits, deductions and places (leagues.results).
        from leagues import results

        from . import services

        results.adjustments.fill(services.adjustments)
