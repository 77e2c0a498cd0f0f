"""The standings cache is a speed-up, never a condition: a cache directory that is gone,
unwritable or full, or a file cut short, costs a computation and never a page."""

from __future__ import annotations

import pytest
from django.db.models import Max
from django.urls import reverse

from scoring.models import ResultsMark
from tests.standings.test_views import field, rename, shown_mark

pytestmark = pytest.mark.django_db

PAGES = ["public:standings", "public:live", "public:standings_pdf", "public:standings_csv"]


def file_cache(settings, location) -> None:
    settings.CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.filebased.FileBasedCache", "LOCATION": str(location)}
    }


@pytest.mark.parametrize("name", PAGES)
def test_the_pages_are_served_when_the_cache_directory_cannot_be_made(client, settings, tmp_path, name):
    settings.STANDINGS_SETTLE_SECONDS = 5  # the mark shown is kept in the cache too
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    file_cache(settings, blocker / "cache")
    t = field(12, standings_public=True)
    assert client.get(reverse(name, args=[t.pk])).status_code == 200


def test_a_cache_file_cut_short_is_computed_again(client, settings, tmp_path):
    file_cache(settings, tmp_path / "cache")
    t = field(12, standings_public=True)
    url = reverse("public:standings", args=[t.pk])
    client.get(url)
    for entry in (tmp_path / "cache").iterdir():  # a full disk: every entry cut short
        entry.write_bytes(entry.read_bytes()[:20])
    again = client.get(url)
    assert again.status_code == 200 and again.context["total"] == 12


def test_a_change_in_the_same_second_is_never_answered_304(client):
    """HTTP dates count whole seconds (and PostgreSQL stamps a change with its transaction's
    start): only the ETag may say "unchanged"; If-Modified-Since alone gets the page."""
    t = field(12, standings_public=True)
    url = reverse("public:standings", args=[t.pk])
    first = client.get(url)
    at = ResultsMark.objects.filter(tournament=t).aggregate(at=Max("changed_at"))["at"]
    rename(t, 1, "Neu Benannt")
    ResultsMark.objects.filter(tournament=t).update(changed_at=at)  # the rename in the same second
    again = client.get(url, HTTP_IF_MODIFIED_SINCE=first["Last-Modified"])
    assert again.status_code == 200 and "Neu Benannt" in again.content.decode()
    assert again["Last-Modified"] == first["Last-Modified"]
    assert client.get(url, HTTP_IF_NONE_MATCH=again["ETag"]).status_code == 304


@pytest.mark.parametrize("name", ["public:standings", "director:standings"])
def test_a_new_login_gets_the_page_again_not_a_304(client, director, name):
    """Every page carries the log-out and language forms with a CSRF token: a new login
    rotates the secret, and a 304 would keep the old token (those forms would fail)."""
    t = field(12, director, standings_public=True)
    url = reverse(name, args=[t.pk])
    etag = client.get(url)["ETag"]
    assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304
    client.logout()
    client.force_login(director)
    assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 200


def test_one_request_computes_a_missing_entry_and_the_others_wait_for_it(settings, tmp_path, monkeypatch):
    """100 spectators a second: when the results change, one computes the page, the
    others wait for it instead of computing it again (standings.cache.lookup_or_claim).

    No clock: the first request computes until the second is seen waiting (its second
    look at the cache, after finding the entry claimed), and the second starts only once
    the first has claimed the entry."""
    import threading

    from standings import cache as public_cache

    file_cache(settings, tmp_path / "cache")
    computed = []
    computing, second_waits = threading.Event(), threading.Event()
    looks = {"second": 0}
    lookup = public_cache.lookup

    def watched_lookup(key: str):
        if threading.current_thread() is threading.main_thread():
            looks["second"] += 1
            if looks["second"] == 2:  # past its first look and the refused claim: waiting
                second_waits.set()
        return lookup(key)

    monkeypatch.setattr(public_cache, "lookup", watched_lookup)
    # The second's wait bounds a hang only: a loaded machine must not make it compute too.
    monkeypatch.setattr(public_cache, "WAIT_FOR_OTHER", 60)

    def slow_page() -> str:
        computed.append(1)
        computing.set()
        assert second_waits.wait(timeout=60), "the second request never waited"  # bounds a hang only
        return "the page"

    first = threading.Thread(target=lambda: public_cache.cached("k-wait", slow_page))
    first.start()
    assert computing.wait(timeout=60)  # the first has claimed the entry and is computing
    assert public_cache.cached("k-wait", lambda: "computed again") == "the page"
    first.join()
    assert computed == [1]


def test_an_entry_stored_between_the_look_and_the_claim_is_not_computed_again(settings, tmp_path, monkeypatch):
    """The request that computed it stored it and gave its claim back just after this one
    looked: the free claim is no reason to compute the page a second time (1-2 s at 9,000 players)."""
    from standings import cache as public_cache
    from standings.claims import claim

    file_cache(settings, tmp_path / "cache")
    assert public_cache.cached("k-late", lambda: "the page") == "the page"  # stored, its claim given back
    looked, missed = public_cache.lookup, []

    def before_it_was_stored(key: str):
        if not missed:
            missed.append(key)
            return None
        return looked(key)

    monkeypatch.setattr(public_cache, "lookup", before_it_was_stored)
    assert public_cache.cached("k-late", lambda: "computed again") == "the page"
    assert missed == ["k-late"] and claim("k-late", 10)  # and its claim given back


def test_a_claim_nobody_fulfils_costs_a_short_wait_then_a_computation(settings, tmp_path, monkeypatch):
    from standings import cache as public_cache

    file_cache(settings, tmp_path / "cache")
    monkeypatch.setattr(public_cache, "WAIT_FOR_OTHER", 0.05)
    assert public_cache.lookup_or_claim("k-gone") is None  # claimed: this request computes
    # ... and fails before storing: the next request waits a moment, then computes itself.
    assert public_cache.lookup_or_claim("k-gone") is None
    assert public_cache.cached("k-gone", lambda: "made") == "made"
    assert public_cache.lookup_or_claim("k-gone") == "made"


def test_two_processes_claiming_an_entry_at_once_get_one_claim(settings, tmp_path, monkeypatch):
    """Django's FileBasedCache.add looks, then writes: two processes looking at once both
    "added" the claim and both computed a page of 1-2 s (9,000 players, a loaded hall).
    standings.claims.claim is one O_EXCL file creation."""
    import threading

    from django.core.cache import cache
    from django.core.cache.backends.filebased import FileBasedCache

    from standings.claims import claim

    file_cache(settings, tmp_path / "cache")
    both_looked = threading.Barrier(2)
    has_key = FileBasedCache.has_key

    def look_together(self, key, version=None):  # the two looks before either writes
        found = has_key(self, key, version)
        both_looked.wait(timeout=5)
        return found

    monkeypatch.setattr(FileBasedCache, "has_key", look_together)

    def at_once(attempt) -> list[bool]:
        results: list[bool] = []
        threads = [threading.Thread(target=lambda: results.append(attempt())) for _ in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        return results

    assert at_once(lambda: cache.add("k-race:computing", True, 10)) == [True, True]  # the reason
    assert sorted(at_once(lambda: claim("k-race", 10))) == [False, True]


def test_a_claim_is_given_back_with_the_value_and_taken_over_when_stale(settings, tmp_path):
    import os
    import time

    from standings import cache as public_cache
    from standings.claims import _claim_file, claim

    file_cache(settings, tmp_path / "cache")
    assert claim("k-own", 10) and not claim("k-own", 10)
    public_cache.store("k-own", "made")  # the value is there: the claim is given back (no file left)
    assert not os.path.exists(_claim_file("k-own")) and claim("k-own", 10)
    old = time.time() - 60
    os.utime(_claim_file("k-own"), (old, old))  # a killed worker's claim
    assert claim("k-own", 10)


def test_a_clock_set_back_does_not_hold_the_public_pages_on_the_mark_shown(settings, tmp_path):
    """The serving processes share the wall clock, and a laptop that meets the hall's time
    server may set it back, by an hour say: the mark shown "in the future" counts as old,
    so the next change is shown after the window as ever, not once the clock caught up."""
    from standings.cache import Mark
    from tests import factories

    file_cache(settings, tmp_path / "cache")
    settings.STANDINGS_SETTLE_SECONDS = 5
    t = factories.tournament()
    one, two, three = Mark(1, None), Mark(2, None), Mark(3, None)
    assert shown_mark(t, one, now=10_000.0) == one
    assert shown_mark(t, two, now=9_999.5) == one  # a clock's grain is no clock set back
    assert shown_mark(t, two, now=10_000.0 - 3600) == two  # set back an hour: shown now
    assert shown_mark(t, three, now=10_000.0 - 3598) == two  # then the window as ever
    assert shown_mark(t, three, now=10_000.0 - 3594) == three


def test_a_claim_made_before_the_clock_was_set_back_is_taken_over(settings, tmp_path):
    """A killed worker's claim, made an hour "ahead" of a clock set back since, would hold
    for that hour (the public pages kept on the mark before, MOVE_CLAIM_SECONDS meant 60 s)."""
    import os
    import time

    from standings.claims import _claim_file, claim

    file_cache(settings, tmp_path / "cache")
    assert claim("k-ahead", 60)
    ahead = time.time() + 3600
    os.utime(_claim_file("k-ahead"), (ahead, ahead))
    assert claim("k-ahead", 60)
    soon = time.time() + 0.5  # the file system's grain: still a claim
    os.utime(_claim_file("k-ahead"), (soon, soon))
    assert not claim("k-ahead", 60)


def test_a_computation_that_fails_gives_its_claim_back(settings, tmp_path):
    """A claim file is no cache entry (nothing culls it): one left by a page that failed
    stayed in the cache's folder for ever, one per failing page and mark, and each request
    for that page waited WAIT_FOR_OTHER for a value that never came."""
    from standings import cache as public_cache

    file_cache(settings, tmp_path / "cache")

    def fail():
        raise RuntimeError("a page that fails")

    with pytest.raises(RuntimeError):
        public_cache.cached("k-fails", fail)
    assert list((tmp_path / "cache").glob("*.claim")) == []


def test_a_standings_page_that_fails_gives_its_claim_back(client, settings, tmp_path, monkeypatch):
    from standings import views

    file_cache(settings, tmp_path / "cache")
    t = field(12, standings_public=True)

    def fail(*args, **kwargs):
        raise RuntimeError("a page that fails")

    monkeypatch.setattr(views, "_standings_context", fail)
    with pytest.raises(RuntimeError):
        client.get(reverse("public:standings", args=[t.pk]))
    assert list((tmp_path / "cache").glob("*.claim")) == []
