"""``/healthz``: is this office able to serve? For a league server's monitor, a container's
health check or a load balancer.

One query (the database's durability settings, core.durability: ``PRAGMA synchronous``
or PostgreSQL's ``synchronous_commit`` and ``fsync``) and one round-trip through the cache (the standings' pages live
there), nothing else: no session is read or saved and no cookie is set, so a probe every
few seconds costs nothing and leaves nothing behind. 200 with ``{"status": "ok", ...}``,
or 503 naming the part that failed.
"""

from __future__ import annotations

import logging
import secrets

from django.core.cache import cache
from django.db import DatabaseError, connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from core import durability

logger = logging.getLogger("config.health")
CACHE_KEY = "office:healthz"


def _database() -> str:
    """ "ok"; "failed" when the database does not answer; "not durable" when its settings may
    lose a confirmed deal in a power cut (core.durability: the same one query answers both)."""
    sql = durability.query(connection.vendor)
    try:
        with connection.cursor() as cursor:
            cursor.execute(sql or "SELECT 1")
            row = cursor.fetchone()
    except DatabaseError as error:
        logger.warning("Health: the database does not answer: %s", error)
        return "failed"
    if sql and (problem := durability.problem_of(connection.vendor, row)):
        logger.warning("Health: %s", problem)
        return "not durable"
    return "ok"


def _cache() -> str:
    # A key of its own per probe: two monitors probing at once must not read each other's token.
    token = secrets.token_hex(8)
    key = f"{CACHE_KEY}:{token}"
    try:
        cache.set(key, token, 60)
        answered = cache.get(key)
        cache.delete(key)
    except Exception as error:  # any backend's failure (a full disk, a dead cache server) is a failed check
        logger.warning("Health: the cache does not answer: %s", error)
        return "failed"
    return "ok" if answered == token else "failed"


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    checks = {"database": _database(), "cache": _cache()}
    healthy = all(value == "ok" for value in checks.values())
    return JsonResponse({"status": "ok" if healthy else "failed", **checks}, status=200 if healthy else 503)
