"""`/healthz`: one query, one cache round-trip, no session, no cookie; 200 when the office
can serve, 503 naming what failed."""

from __future__ import annotations

import pytest
from django.db import DatabaseError

from config import health

pytestmark = pytest.mark.django_db


def test_a_healthy_office_answers_ok_with_one_query_and_no_cookie(client, django_assert_num_queries):
    with django_assert_num_queries(1):
        response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": "ok", "cache": "ok"}
    assert response.cookies == {} and "no-cache" in response["Cache-Control"]  # no session, no CSRF cookie


def test_a_database_that_does_not_answer_is_503(client, monkeypatch):
    def broken(*args, **kwargs):
        raise DatabaseError("connection refused")

    monkeypatch.setattr(health.connection, "cursor", broken)
    response = client.get("/healthz")
    assert response.status_code == 503 and response.json()["database"] == "failed"


def test_a_database_that_may_lose_a_confirmed_deal_is_503(client, monkeypatch, django_assert_num_queries):
    """SQLite's synchronous below FULL, PostgreSQL's synchronous_commit off: read by the one query."""
    from core import durability

    off = {"sqlite": "SELECT 1", "postgresql": "SELECT 'off', 'on'"}  # synchronous=1 (NORMAL); commits not waited for
    monkeypatch.setattr(durability, "query", lambda vendor: off.get(vendor))
    with django_assert_num_queries(1):
        response = client.get("/healthz")
    if health.connection.vendor in off:
        assert response.status_code == 503
        assert response.json() == {"status": "failed", "database": "not durable", "cache": "ok"}


def test_a_cache_that_fails_or_forgets_is_503(client, monkeypatch):
    monkeypatch.setattr(health.cache, "get", lambda key: None)
    response = client.get("/healthz")
    assert response.status_code == 503 and response.json() == {"status": "failed", "database": "ok", "cache": "failed"}

    def full_disk(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(health.cache, "set", full_disk)
    assert client.get("/healthz").status_code == 503


def test_two_probes_at_once_are_both_ok(client, monkeypatch):
    """A second monitor's probe between this one's write and read does not fail this one."""
    get = health.cache.get
    inner: list[str] = []

    def probed_meanwhile(key, *args, **kwargs):
        if not inner:
            inner.append("running")
            inner[0] = health._cache()  # the other probe runs between this one's set and get
        return get(key, *args, **kwargs)

    monkeypatch.setattr(health.cache, "get", probed_meanwhile)
    assert client.get("/healthz").status_code == 200 and inner == ["ok"]


def test_it_only_reads(client):
    assert client.post("/healthz").status_code == 405
