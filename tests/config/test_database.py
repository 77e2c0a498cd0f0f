"""The database connection: each serving thread keeps its own, on SQLite as on PostgreSQL."""

from __future__ import annotations

from django.conf import settings


def test_a_serving_thread_keeps_its_connection_between_requests():
    """Opening a connection per request (and, on SQLite, its PRAGMAs) was 7% of the serving
    processes' time at three times the hall (docs: Benchmarks). Django closes a connection
    at a request's end only once it is CONN_MAX_AGE old (the test client never closes one,
    so the setting is what can be checked here)."""
    database = settings.DATABASES["default"]
    assert database["CONN_MAX_AGE"] is None or database["CONN_MAX_AGE"] >= 60
    assert database["CONN_HEALTH_CHECKS"]  # a connection broken meanwhile is replaced, not used
