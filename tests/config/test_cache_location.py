"""The tests keep the standings cache apart from the project's (tests/conftest.py)."""

from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.core.cache import cache


def test_the_standings_cache_of_a_test_run_is_not_the_project_s():
    location = Path(settings.CACHES["default"]["LOCATION"]).resolve()
    project = Path(settings.BASE_DIR).resolve()
    assert project not in location.parents, location
    assert cache._dir == str(location)  # the cache in use, not only the setting
    cache.set("tests-cache-location", 1)
    assert any(location.iterdir())
