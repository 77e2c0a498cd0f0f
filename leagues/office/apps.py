from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LeagueOfficeConfig(AppConfig):
    """The league office: who may run which league (granted by the office's administrator,
    audited) and the match reports the captains sign, with their remarks and protests."""

    name = "leagues.office"
    # Nested in the league's folder; the label keeps the tables' names (leagueoffice_*),
    # the migrations and the URL namespace, and is not the composition's "office".
    label = "leagueoffice"
    verbose_name = _("League office")

    def ready(self) -> None:
        # Fill the hook leagues declares (docs, "Layout"): leagues never imports this app.
        from leagues import setup

        from . import rights

        setup.manager_changed.fill(rights.record_manager_change)
