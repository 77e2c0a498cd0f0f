"""The engine's tests: plain pytest and hypothesis, no Django (``pytest -p no:django skat``)."""

import os

from hypothesis import HealthCheck, settings

# As the office's suite (tests/conftest.py): no deadlines (speed is proven by
# `manage.py bench`, never by timed tests) and the same examples on every run;
# HYPOTHESIS_PROFILE=explore searches with fresh random ones.
settings.register_profile(
    "default", deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow], database=None
)
settings.register_profile("explore", deadline=None, suppress_health_check=[HealthCheck.too_slow], print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))
