"""Suite-wide test settings."""

from hypothesis import HealthCheck, settings

# No deadlines: CI machines are shared and a slow example is not a wrong one.
# Speed is proven by `manage.py bench`, never by timed tests.
settings.register_profile("default", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("default")
