from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PackagesConfig(AppConfig):
    """The match-day package: the league server's match day travels to the hall office."""

    name = "leagues.packages"
    # Nested in the league's folder; the label keeps the migrations and the templates' folder.
    label = "packages"
    verbose_name = _("Match-day packages")

    def ready(self) -> None:
        from . import checks  # noqa: F401 - registers the settings' system checks
