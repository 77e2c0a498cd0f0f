from django.apps import AppConfig


class OfficeConfig(AppConfig):
    """The program a director runs: ``skat-office`` and ``manage.py serve``, the demo,
    the backups and their restore.

    It may import every app and ``config`` below it; only ``perf`` (which measures it)
    imports it.
    """

    name = "office"

    def ready(self) -> None:
        # A backup after each finished series: the dashboard announces it,
        # core.backups' background maker (started by serve) makes it.
        from core.backups import after_series
        from dashboard.signals import series_finished

        series_finished.connect(after_series, dispatch_uid="office-backup-after-series")
