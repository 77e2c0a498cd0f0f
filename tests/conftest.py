"""Suite-wide test settings."""

import os

import pytest
from hypothesis import HealthCheck, settings

# No deadlines: CI machines are shared and a slow example is not a wrong one.
# Speed is proven by `manage.py bench`, never by timed tests.
# Derandomized: the same examples on every run, so CI never fails by luck; run
# HYPOTHESIS_PROFILE=explore to search with fresh random examples.
settings.register_profile(
    "default", deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow], database=None
)
settings.register_profile("explore", deadline=None, suppress_health_check=[HealthCheck.too_slow], print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


@pytest.fixture(autouse=True)
def _fresh_cache(request):
    """The cache (the login throttle's counts) lives in a database table that test
    rollbacks and flushes do not reset: start every database test with it empty."""
    marker = request.node.get_closest_marker("django_db")
    if marker is None:
        yield
        return
    transactional = marker.kwargs.get("transaction", False) or (marker.args and marker.args[0])
    request.getfixturevalue("transactional_db" if transactional else "db")
    from django.core.cache import cache

    cache.clear()
    yield


@pytest.fixture(autouse=True)
def _fast_password_hasher(settings):
    """Logins in tests need not resist offline cracking: a fast hasher keeps the
    throttle and access tests (dozens of logins) quick. Production keeps PBKDF2."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
