"""The throwaway database the bench and the load test build their tournaments in.

A temporary SQLite file, or a scratch database created and dropped on a PostgreSQL
server. The user's own database is never touched.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from django.conf import settings
from django.core.cache.backends.filebased import FileBasedCache
from django.db import connections
from django.utils.module_loading import import_string

from .timing import Log

#: A migrated SQLite file a SQLite scratch database starts as a copy of, when this names
#: one (the test suite names a copy of its own test database: migrating each scratch
#: database anew took 8 s a test). ``migrate`` still runs and finds nothing or little to do.
TEMPLATE_ENV = "SKAT_SCRATCH_TEMPLATE"


@dataclass(frozen=True)
class Scratch:
    """The throwaway database: a description for the report and a DATABASE_URL for a server
    process, and the throwaway standings cache (CACHE_DIR) that goes with it."""

    description: str
    url: str
    vendor: str
    cache_dir: str


@contextmanager
def scratch_database(url: str | None = None, log: Log = print, prefix: str = "bench") -> Iterator[Scratch]:
    """Point the ``default`` connection at a throwaway database for the block, then restore it.

    ``url`` None or ``"sqlite"``: a temporary SQLite file with the office's own SQLite
    options (WAL, IMMEDIATE transactions). A ``postgres://user@host:port/`` URL: a
    database ``<prefix>_<pid>`` created on that server and dropped afterwards. Yields a
    :class:`Scratch`. Migrations run first (and ``createcachetable``, for a database cache).

    The standings cache moves to a throwaway folder for the block too: the office's own
    cache (beside its database) keys pages by tournament id and results mark, and a bench
    tournament with the id of a real one must never leave a page there for the real office
    to serve.
    """
    import dj_database_url
    from django.core.management import call_command
    from django.test.utils import override_settings

    original_settings = connections.settings["default"]
    original_connection = connections["default"]
    cleanup: Callable[[], None]
    if url in (None, "", "sqlite"):
        directory = Path(tempfile.mkdtemp(prefix="skat-bench-"))
        path = directory / "bench.sqlite3"
        template = os.environ.get(TEMPLATE_ENV)
        if template and Path(template).is_file():
            shutil.copyfile(template, path)
        if original_settings["ENGINE"] == "django.db.backends.sqlite3":
            config = dict(original_settings, NAME=str(path))
        else:
            config = dj_database_url.parse(f"sqlite:///{path}")
            config["OPTIONS"] = {
                "transaction_mode": "IMMEDIATE",
                "timeout": 20,
                "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL; PRAGMA foreign_keys=ON;",
            }
        config["CONN_MAX_AGE"] = 0
        scratch = Scratch(f"SQLite {path}", f"sqlite:///{path}", "sqlite", str(directory / "cache"))

        def cleanup() -> None:
            # The file, its WAL, and the standings cache (settings.CACHES).
            shutil.rmtree(directory, ignore_errors=True)

    else:
        config = dj_database_url.parse(url)
        if "postgresql" not in config["ENGINE"]:
            raise ValueError(f"--database: give sqlite or a postgres:// URL, not {url!r}")
        name = f"{prefix}_{os.getpid()}"
        admin = dict(config, NAME=config.get("NAME") or "postgres")
        _postgres_admin(admin, f'DROP DATABASE IF EXISTS "{name}"', f'CREATE DATABASE "{name}"')
        config["NAME"] = name
        parts = urlsplit(url)
        cache_dir = tempfile.mkdtemp(prefix="skat-bench-cache-")
        scratch = Scratch(
            f"PostgreSQL {config.get('HOST') or 'localhost'}:{config.get('PORT') or 5432}/{name}",
            urlunsplit((parts.scheme, parts.netloc, f"/{name}", parts.query, "")),
            "postgresql",
            cache_dir,
        )

        def cleanup() -> None:
            _postgres_admin(admin, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            shutil.rmtree(cache_dir, ignore_errors=True)

    config = connections.configure_settings({"default": config})["default"]
    connections.settings["default"] = config
    connections["default"] = connections.create_connection("default")
    # A file cache moves to the scratch folder; a database cache is in the scratch database already.
    caches = {
        alias: {**config, "LOCATION": str(Path(scratch.cache_dir) / alias)}
        if issubclass(import_string(config["BACKEND"]), FileBasedCache)
        else config
        for alias, config in settings.CACHES.items()
    }
    moved_cache = override_settings(CACHES=caches)
    moved_cache.enable()
    try:
        log(f"scratch database: {scratch.description}")
        call_command("migrate", verbosity=0, interactive=False)  # nothing left to do on a template's copy
        # A database cache backend (settings.CACHES) keeps its table outside the migrations.
        call_command("createcachetable", verbosity=0)
        yield scratch
    finally:
        moved_cache.disable()
        connections["default"].close()
        connections.settings["default"] = original_settings
        connections["default"] = original_connection
        cleanup()


def _postgres_admin(config: dict, *statements: str) -> None:
    import psycopg

    with psycopg.connect(
        dbname=config["NAME"],
        user=config.get("USER") or None,
        password=config.get("PASSWORD") or None,
        host=config.get("HOST") or None,
        port=config.get("PORT") or None,
        autocommit=True,
    ) as conn:
        for statement in statements:
            conn.execute(statement)


def database_size() -> int | None:
    """The scratch database's size on disk in bytes (SQLite: its file and WAL), None when unknown."""
    connection = connections["default"]
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_database_size(current_database())")
            return cursor.fetchone()[0]
    if connection.vendor == "sqlite":
        path = Path(connection.settings_dict["NAME"])
        return sum(p.stat().st_size for p in (path, path.with_name(path.name + "-wal")) if p.exists())
    return None
