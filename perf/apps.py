from django.apps import AppConfig


class PerfConfig(AppConfig):
    """The bench and the load test (``manage.py bench``, ``loadtest``): they measure the
    office as a director serves it, so they sit above it and nothing imports them."""

    name = "perf"
