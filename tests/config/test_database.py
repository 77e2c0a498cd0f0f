"""The database connection: each serving thread keeps its own, on SQLite as on PostgreSQL."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest


def test_a_serving_thread_keeps_its_connection_between_requests():
    """Opening a connection per request (and, on SQLite, its PRAGMAs) was 7% of the serving
    processes' time at three times the hall (docs: Benchmarks): serving (DEBUG off), Django
    closes a connection at a request's end only once it is CONN_MAX_AGE old. The settings
    as a serving process reads them, in a process of their own."""
    env = os.environ | {"DEBUG": "0", "SECRET_KEY": "s3rving-" + "x1y2z3" * 10, "DATABASE_URL": ""}
    env.pop("CONN_MAX_AGE", None)
    code = "import config.settings as s; d = s.DATABASES['default']; print(d['CONN_MAX_AGE'], d['CONN_HEALTH_CHECKS'])"
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["60", "True"]


@pytest.mark.django_db
def test_a_kept_sqlite_connection_holds_little_memory_and_the_wal_is_cut_back():
    """A connection kept per thread keeps its page cache, and the WAL stays as large as the
    largest transaction while any connection is open (the review measured 20 MB a
    connection and a 49 MB WAL after a checkpoint)."""
    from django.db import connection

    if connection.vendor != "sqlite":
        pytest.skip("SQLite's own settings")
    with connection.cursor() as cursor:
        assert cursor.execute("PRAGMA cache_size").fetchone()[0] == -8000
        assert cursor.execute("PRAGMA journal_size_limit").fetchone()[0] == 64 * 1024 * 1024
