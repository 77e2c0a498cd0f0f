from django.apps import AppConfig


class PowercutConfig(AppConfig):
    """The power-cut simulator and its run (``manage.py powercut``): it serves the office
    from a simulated disk and cuts its power, so it sits above perf (whose loopback client
    and free port it uses) and nothing imports it."""

    name = "perf.powercut"
    label = "powercut"
