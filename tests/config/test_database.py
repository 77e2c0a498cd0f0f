"""The database connection: each serving thread keeps its own, on SQLite as on PostgreSQL."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_a_serving_thread_keeps_its_connection_between_requests():
    """Opening a connection per request (and, on SQLite, its PRAGMAs) costs 7% of the serving
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


# config.database: the address in DATABASE_URL, the password apart from it.

HARD_PASSWORDS = ["p@ss:w/rd#1%", "abc%20def", "with spaces  ", "?&=+;'\"\\ü€"]


def _default(tmp_path, **environ: str) -> dict:
    from config import database

    return database.default(environ, tmp_path)


@pytest.mark.parametrize("secret", HARD_PASSWORDS)
def test_any_password_given_apart_from_the_url_reaches_the_connection_as_it_is(secret, tmp_path):
    """In a URL ``@ : / #`` break the address and ``%20`` is read as a space; apart from it nothing is."""
    db = _default(tmp_path, DATABASE_URL="postgres://skat@db:5432/skat", DATABASE_PASSWORD=secret)
    assert (db["USER"], db["PASSWORD"], db["HOST"], db["PORT"], db["NAME"]) == ("skat", secret, "db", 5432, "skat")


@pytest.mark.parametrize("secret", HARD_PASSWORDS)
def test_the_password_file_gives_its_text_without_the_final_line_break(secret, tmp_path):
    """A container's secret file: written by an editor or ``echo``, it ends with a line break that is no part of it."""
    (tmp_path / "pw").write_text(secret + "\n", encoding="utf-8")
    db = _default(tmp_path, DATABASE_URL="postgres://skat@db/skat", DATABASE_PASSWORD_FILE=str(tmp_path / "pw"))
    assert db["PASSWORD"] == secret


def test_a_password_file_without_a_line_break_is_taken_whole(tmp_path):
    (tmp_path / "pw").write_bytes(b"s3cret \r\n")
    db = _default(tmp_path, DATABASE_URL="postgres://skat@db/skat", DATABASE_PASSWORD_FILE=str(tmp_path / "pw"))
    assert db["PASSWORD"] == "s3cret "
    (tmp_path / "pw").write_bytes(b"s3cret")
    db = _default(tmp_path, DATABASE_URL="postgres://skat@db/skat", DATABASE_PASSWORD_FILE=str(tmp_path / "pw"))
    assert db["PASSWORD"] == "s3cret"


def test_a_percent_encoded_password_in_the_url_still_works(tmp_path):
    """The former way stays: an address whose password is quoted (urllib.parse.quote)."""
    from urllib.parse import quote

    db = _default(tmp_path, DATABASE_URL=f"postgres://skat:{quote('p@ss:w/rd#1%', safe='')}@db/skat")
    assert (db["PASSWORD"], db["HOST"]) == ("p@ss:w/rd#1%", "db")


def test_no_url_is_sqlite_in_the_data_directory(tmp_path):
    db = _default(tmp_path, DATABASE_URL="")
    assert db["ENGINE"] == "django.db.backends.sqlite3" and db["NAME"] == str(tmp_path / "db.sqlite3")


@pytest.mark.parametrize(
    ("environ", "message"),
    [
        (
            {"DATABASE_URL": "postgres://skat:pa#ss@db/skat"},
            "DATABASE_URL cannot be read as a database address: in it a password holding @ : / # ? %",
        ),
        ({"DATABASE_URL": "postgresx://skat@db/skat"}, "DATABASE_URL must start with a database's scheme"),
        ({"DATABASE_URL": "db:5432"}, "DATABASE_URL must start with a database's scheme"),
        (
            {"DATABASE_URL": "postgres://skat:Uno-1@db/skat", "DATABASE_PASSWORD": "Dos-2"},
            "DATABASE_URL holds a password and DATABASE_PASSWORD is set too",
        ),
        (
            {"DATABASE_URL": "postgres://skat@db/skat", "DATABASE_PASSWORD": "a", "DATABASE_PASSWORD_FILE": "/x"},
            "DATABASE_PASSWORD and DATABASE_PASSWORD_FILE are both set",
        ),
        (
            {"DATABASE_URL": "postgres://skat@db/skat", "DATABASE_PASSWORD_FILE": "/no/such/file"},
            "DATABASE_PASSWORD_FILE names /no/such/file, which does not exist.",
        ),
        ({"DATABASE_URL": "", "DATABASE_PASSWORD": "x"}, "DATABASE_PASSWORD is set, but the database is SQLite"),
        ({"CONN_MAX_AGE": "a minute"}, "CONN_MAX_AGE must be a whole number of seconds, 0 or more, not 'a minute'"),
        ({"CONN_MAX_AGE": "-1"}, "CONN_MAX_AGE must be a whole number of seconds, 0 or more, not '-1'"),
    ],
)
def test_a_setting_that_cannot_be_used_names_the_variable_and_the_rule(environ, message, tmp_path):
    from config.database import DatabaseSettingError

    with pytest.raises(DatabaseSettingError) as refused:
        _default(tmp_path, **environ)
    assert message in str(refused.value)
    for secret in ("pa#ss", "Uno-1", "Dos-2"):
        assert secret not in str(refused.value)


def test_an_empty_or_unreadable_password_file_is_refused(tmp_path):
    from config.database import DatabaseSettingError

    (tmp_path / "empty").write_text("\n")
    (tmp_path / "latin1").write_bytes("geheim\xe4".encode("latin-1"))
    url = "postgres://skat@db/skat"
    for name, rule in [("empty", "which is empty"), ("latin1", "which is not UTF-8 text"), (".", "cannot be read")]:
        with pytest.raises(DatabaseSettingError, match=rule):
            _default(tmp_path, DATABASE_URL=url, DATABASE_PASSWORD_FILE=str(tmp_path / name))


def test_a_refused_database_setting_stops_the_command_with_one_line_and_no_traceback(tmp_path):
    """``skat-office``/``manage.py`` print the message alone: the variable and the rule, never the password."""
    env = os.environ | {"DATABASE_URL": "postgres://skat:se#cret@db:5432/skat"}
    env.pop("DATABASE_PASSWORD", None)
    env.pop("DATABASE_PASSWORD_FILE", None)
    result = subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 1
    assert result.stderr.startswith("ImproperlyConfigured: DATABASE_URL cannot be read as a database address")
    assert "Traceback" not in result.stderr and "se#cret" not in result.stderr
