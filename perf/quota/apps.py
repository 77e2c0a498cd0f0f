from django.apps import AppConfig


class QuotaConfig(AppConfig):
    """The CPU quota of ``loadtest`` and ``bench`` (``--cpu-quota``): a cgroup the served
    office runs in. It knows nothing of the office, so it sits below perf, which uses it."""

    name = "perf.quota"
    label = "quota"
