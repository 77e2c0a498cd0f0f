"""The shared file cache looks at its directory now and then, not at every write, and
still culls: the folder never grows much past MAX_ENTRIES."""

from __future__ import annotations

import pytest

from standings import filecache
from standings.filecache import RarelyCulledFileCache


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setattr(filecache, "_writes", {})
    return RarelyCulledFileCache(str(tmp_path / "c"), {"OPTIONS": {"MAX_ENTRIES": 10, "CULL_FREQUENCY": 2}})


def files(cache: RarelyCulledFileCache) -> int:
    return len(cache._list_cache_files())


def test_a_write_lists_the_directory_once_per_cull_every_writes(cache, monkeypatch):
    listed = []
    listing = RarelyCulledFileCache._list_cache_files
    monkeypatch.setattr(RarelyCulledFileCache, "_list_cache_files", lambda self: listed.append(1) or listing(self))
    for number in range(3 * filecache.CULL_EVERY):
        cache.set(f"key-{number}", number)
    assert len(listed) == 3


def test_the_folder_is_culled_back_under_max_entries(cache):
    for number in range(filecache.CULL_EVERY - 1):
        cache.set(f"key-{number}", number)
    assert files(cache) == filecache.CULL_EVERY - 1  # not looked at yet
    cache.set("one-more", 1)  # the write that looks: half of them culled (CULL_FREQUENCY 2)
    assert files(cache) == filecache.CULL_EVERY // 2 + 1
    assert cache.get("one-more") == 1


def test_a_process_that_writes_rarely_culls_after_cull_seconds(cache, monkeypatch):
    for number in range(20):
        cache.set(f"key-{number}", number)
    assert files(cache) == 20
    now = filecache.time.monotonic()
    monkeypatch.setattr(filecache.time, "monotonic", lambda: now + filecache.CULL_SECONDS + 1)
    cache.set("later", 1)
    assert files(cache) == 20 // 2 + 1


def test_the_office_uses_it(settings):
    assert settings.CACHES["default"]["BACKEND"] == "standings.filecache.RarelyCulledFileCache"
