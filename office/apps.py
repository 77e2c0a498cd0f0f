from django.apps import AppConfig


class OfficeConfig(AppConfig):
    """The composition layer: tools that drive the whole office (demo, bench, loadtest).

    It may import every app below it (tournaments, scoring, referees); nothing imports it.
    """

    name = "office"
