from django.apps import AppConfig


class OfficeConfig(AppConfig):
    """The composition layer: tools that drive the whole office (demo, bench, loadtest).

    It may import every app below it (tournaments, scoring, referees); nothing imports it.
    """

    name = "office"

    def ready(self) -> None:
        # A backup after each finished series (issue 25): the dashboard announces it,
        # core.backups' background maker (started by serve) makes it.
        from core.backups import after_series
        from dashboard.signals import series_finished

        series_finished.connect(after_series, dispatch_uid="office-backup-after-series")
