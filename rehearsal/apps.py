from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RehearsalConfig(AppConfig):
    name = "rehearsal"
    verbose_name = _("Rehearsal")

    def ready(self) -> None:
        # The dashboard (below) shows a practice tournament's panel through its hook (docs, "Layout").
        from tournaments import hooks

        from . import panels

        hooks.dashboard_panels.fill(panels.practice_panel)
