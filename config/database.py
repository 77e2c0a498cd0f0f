"""The office's database, read from the environment (config.settings' ``DATABASES``).

- ``DATABASE_URL``: e.g. ``postgres://skat@db:5432/skat`` (dj-database-url); empty or unset:
  SQLite in the data directory (``db.sqlite3``);
- ``DATABASE_PASSWORD``, or ``DATABASE_PASSWORD_FILE`` (a file holding it, e.g. a
  container's secret): the password, kept out of the URL. In a URL a password is
  percent-decoded (``abc%20def`` is ``abc def``) and one holding ``/``, ``#`` or ``?``
  cannot be read at all; apart from it, any password works as it is;
- ``CONN_MAX_AGE``: seconds a serving thread keeps its connection (60).

A setting that cannot be used stops the start with a message naming the variable and
the rule (:class:`DatabaseSettingError`), never with the password in it.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

URL_ENV = "DATABASE_URL"
PASSWORD_ENV = "DATABASE_PASSWORD"
PASSWORD_FILE_ENV = "DATABASE_PASSWORD_FILE"
CONN_MAX_AGE_ENV = "CONN_MAX_AGE"

#: What a URL's password that cannot be read is told, and what to do instead.
URL_RULE = (
    f"{URL_ENV} cannot be read as a database address: in it a password holding @ : / # ? % or a space "
    "must be percent-encoded (urllib.parse.quote). Better: leave the password out of the address "
    f"(postgres://skat@db:5432/skat) and set {PASSWORD_ENV} or {PASSWORD_FILE_ENV}, where any password works as it is."
)


class DatabaseSettingError(ImproperlyConfigured):
    """A database setting of the environment the office cannot use: its message says which and why."""


def password(environ: Mapping[str, str]) -> str:
    """The password given apart from the URL (``DATABASE_PASSWORD`` or the file
    ``DATABASE_PASSWORD_FILE`` names), else empty.

    The file's final line break is not part of it (an editor or ``echo`` adds one); every
    other character is, spaces too.
    """
    given = environ.get(PASSWORD_ENV, "")
    path = environ.get(PASSWORD_FILE_ENV, "")
    if given and path:
        raise DatabaseSettingError(f"{PASSWORD_ENV} and {PASSWORD_FILE_ENV} are both set: set only one of them.")
    if not path:
        return given
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise DatabaseSettingError(f"{PASSWORD_FILE_ENV} names {path}, which does not exist.") from None
    except UnicodeDecodeError:
        raise DatabaseSettingError(f"{PASSWORD_FILE_ENV} names {path}, which is not UTF-8 text.") from None
    except OSError as error:
        raise DatabaseSettingError(
            f"{PASSWORD_FILE_ENV} names {path}, which cannot be read ({error.strerror or error})."
        ) from None
    secret = text.removesuffix("\n").removesuffix("\r")
    if not secret:
        raise DatabaseSettingError(f"{PASSWORD_FILE_ENV} names {path}, which is empty: it must hold the password.")
    return secret


def conn_max_age(environ: Mapping[str, str]) -> int:
    """Seconds a thread keeps its connection: ``CONN_MAX_AGE``, a whole number of 0 or more (60)."""
    value = environ.get(CONN_MAX_AGE_ENV, "").strip() or "60"
    try:
        seconds = int(value)
    except ValueError:
        seconds = -1
    if seconds < 0:
        raise DatabaseSettingError(f"{CONN_MAX_AGE_ENV} must be a whole number of seconds, 0 or more, not {value!r}.")
    return seconds


def default(environ: Mapping[str, str], data_dir: Path) -> dict:
    """The ``default`` database: the URL's, with the password given apart from it."""
    url = environ.get(URL_ENV) or f"sqlite:///{data_dir / 'db.sqlite3'}"
    try:
        database = dj_database_url.parse(url, conn_max_age=conn_max_age(environ), conn_health_checks=True)
    except dj_database_url.UnknownSchemeError:
        scheme = url.partition("://")[0] if "://" in url else ""
        raise DatabaseSettingError(
            f"{URL_ENV} must start with a database's scheme (postgres://, sqlite:///), not {scheme or 'nothing'}://."
        ) from None
    except ValueError:  # dj_database_url.ParseError; its message would not say what to do
        raise DatabaseSettingError(URL_RULE) from None
    secret = password(environ)
    if secret:
        which = PASSWORD_ENV if environ.get(PASSWORD_ENV) else PASSWORD_FILE_ENV
        if database["ENGINE"] == "django.db.backends.sqlite3":
            raise DatabaseSettingError(f"{which} is set, but the database is SQLite, which has no password.")
        if database.get("PASSWORD"):
            raise DatabaseSettingError(
                f"{URL_ENV} holds a password and {which} is set too: give the password in one place only."
            )
        database["PASSWORD"] = secret
    return database


def databases(environ: Mapping[str, str], data_dir: Path, base_dir: Path, debug: bool) -> dict:
    """Django's ``DATABASES`` for this environment.

    SQLite by default: one laptop serves the hall. WAL mode and a busy timeout let the
    scorekeepers' writes queue instead of failing with "database is locked"; IMMEDIATE
    transactions take the write lock up front so two writers never deadlock.
    """
    database = default(environ, data_dir)
    if database["ENGINE"] == "django.db.backends.sqlite3":
        # Serving (DEBUG off), each thread keeps its connection (CONN_MAX_AGE, as on
        # PostgreSQL): opening one per request, with the PRAGMAs below, costs 7% of the
        # serving processes' time at three times the hall (a sampling profile, docs: Benchmarks).
        # In development and the tests (DEBUG on) a connection per request: kept
        # ones broke the test suite's databases between tests (permissions and content types
        # flushed under a kept connection; the cause is not understood yet).
        if debug and CONN_MAX_AGE_ENV not in environ:
            database["CONN_MAX_AGE"] = 0
        database["OPTIONS"] = {
            "transaction_mode": "IMMEDIATE",
            "timeout": 20,
            "init_command": (
                "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL; PRAGMA foreign_keys=ON; "
                # Kept connections keep their page cache and the WAL its size: at most 8 MB a
                # connection (4 processes x 5 threads: 160 MB), the WAL cut back to 64 MB.
                "PRAGMA cache_size=-8000; PRAGMA journal_size_limit=67108864;"
            ),
        }
        # Tests use a file too, not Django's shared-cache in-memory database: that one
        # answers a second writer "table is locked" at once instead of waiting, so two
        # phones at once (tests/scoring/test_concurrency.py) would not behave as in the hall.
        database["TEST"] = {"NAME": str(base_dir / ".test-db.sqlite3")}
    return {"default": database}
