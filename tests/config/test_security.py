"""Production settings: `check --deploy` clean, no secret in the repository, error pages without internals."""

from __future__ import annotations

import json
import os
import re
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from django.test import Client, RequestFactory
from django.urls import get_resolver, reverse
from django.views import defaults

from tests import factories

ROOT = Path(__file__).resolve().parents[2]


def _manage(*args: str, **env: str) -> subprocess.CompletedProcess:
    # A server's environment: none of the test run's settings (the browser tests set
    # DJANGO_ALLOW_ASYNC_UNSAFE for Playwright, which check --deploy rightly refuses).
    unset = {
        "SECRET_KEY",
        "SECRET_KEY_FILE",
        "DEBUG",
        "SECURE",
        "ALLOWED_HOSTS",
        "OFFICE_URL",
        "DJANGO_ALLOW_ASYNC_UNSAFE",
    }
    environment = {k: v for k, v in os.environ.items() if k not in unset}
    environment.update(env)
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=environment, capture_output=True, text=True, timeout=120
    )


def test_production_settings_pass_check_deploy_without_a_warning():
    """A league server: DEBUG off behind HTTPS keeps every HTTPS protection."""
    result = _manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        DEBUG="0",
        SECURE="1",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="skat.example.org",
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


@pytest.mark.parametrize(
    ("key", "why"),
    [
        (None, "it is not set"),
        ("", "it is not set"),
        ("django-insecure-local-only-skat-office-change-me", "it is a well-known key"),
        ("django-insecure-" + "x" * 60, "it is a well-known key"),
        ("correct horse battery staple", "it has 28 characters, fewer than 50"),
        ("ab" * 40, "it has 2 different characters, fewer than 5"),
    ],
)
def test_debug_off_refuses_a_missing_short_or_well_known_secret_key(key, why, tmp_path):
    """Seat PINs are an HMAC of SECRET_KEY: a weak key lets anyone compute every PIN."""
    # No key file either (one a `make run` in this checkout left beside db.sqlite3).
    env = {"DEBUG": "0", "ALLOWED_HOSTS": "skat.example.org", "SECRET_KEY_FILE": str(tmp_path / "none.secret-key")}
    if key is not None:
        env["SECRET_KEY"] = key
    result = _manage("check", **env)
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    assert "SECRET_KEY is refused: " + why in result.stderr and "Set SECRET_KEY in the environment" in result.stderr


SHOW_SETTINGS = (
    "from django.conf import settings as s; import json; print(json.dumps([s.SECRET_KEY, s.SESSION_COOKIE_SECURE, "
    "s.CSRF_COOKIE_SECURE, s.SECURE_SSL_REDIRECT, s.SECURE_HSTS_SECONDS, s.ALLOWED_HOSTS, s.OFFICE_URL]))"
)


def _settings(**env: str) -> list:
    result = _manage("shell", "-c", SHOW_SETTINGS, **env)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_the_hall_serves_plain_http_with_the_key_from_its_file(tmp_path):
    """`make run`'s environment: DEBUG off, SECURE=0, the generated key file; no HTTPS
    redirect, no secure-only cookies, no HSTS; the hall address and 127.0.0.2 accepted."""
    key_file = tmp_path / "db.sqlite3.secret-key"
    key_file.write_text("hall-key-" * 7 + "\n")
    key, *secure, hsts, hosts, office_url = _settings(
        DEBUG="0", SECURE="0", SECRET_KEY_FILE=str(key_file), OFFICE_URL="http://192.168.1.20:8000/"
    )
    assert key == "hall-key-" * 7
    assert secure == [False, False, False] and hsts == 0
    assert office_url == "http://192.168.1.20:8000"
    assert {"192.168.1.20", "127.0.0.2", "127.0.0.1"} <= set(hosts) and "*" not in hosts


def test_a_league_server_behind_https_keeps_its_protections_and_uses_the_request_address():
    _key, *secure, hsts, hosts, office_url = _settings(
        DEBUG="0", SECURE="1", SECRET_KEY=secrets.token_urlsafe(50), ALLOWED_HOSTS="skat.example.org"
    )
    assert secure == [True, True, True] and hsts == 31536000
    assert office_url == "" and hosts == ["skat.example.org"]


def test_without_office_url_the_hall_address_is_detected_with_the_port(tmp_path):
    *_rest, office_url = _settings(DEBUG="0", SECURE="0", SECRET_KEY=secrets.token_urlsafe(50), PORT="8123")
    assert office_url.startswith("http://") and office_url.endswith(":8123")


def test_no_secret_key_value_in_the_repository():
    """Only the refused local default may be written down; a real key comes from the environment."""
    literal = re.compile(r"""SECRET_KEY["']?\s*[:=,]\s*["']([^"'\s]{20,})["']""")
    tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True).stdout.split()
    found = []
    for name in tracked:
        path = ROOT / name
        if name.startswith("tests/"):
            continue  # override_settings(SECRET_KEY=...) in a test is no secret
        if path.suffix in {".py", ".toml", ".cfg", ".ini", ".env", ".yml", ".yaml", ".md"} or name == "Makefile":
            for match in literal.finditer(path.read_text(encoding="utf-8", errors="replace")):
                if not match.group(1).startswith("django-insecure"):
                    found.append((name, match.group(0)))
    assert found == []


#: Views without a session: they authenticate by a token of their own in a header, which
#: no other site can make a browser send (leagues/api.py: the hosts' publication).
TOKEN_AUTHENTICATED = ["league/api/publish/"]


def test_no_view_is_csrf_exempt():
    def walk(resolver):
        for pattern in resolver.url_patterns:
            if hasattr(pattern, "url_patterns"):
                yield from walk(pattern)
            else:
                yield pattern

    exempt = [str(p.pattern) for p in walk(get_resolver()) if getattr(p.callback, "csrf_exempt", False)]
    assert exempt == ["api/publish/"]  # TOKEN_AUTHENTICATED, under league/
    assert [f"league/{path}" for path in exempt] == TOKEN_AUTHENTICATED


@pytest.mark.django_db
def test_the_404_page_is_the_offices():
    response = Client().get("/no/such/page/")
    assert response.status_code == 404
    page = response.content.decode()
    assert "Page not found" in page and "office.css" in page
    assert "Traceback" not in page and "urlpatterns" not in page


@pytest.mark.django_db
def test_the_403_page_is_the_offices():
    client = Client()
    client.force_login(factories.user())
    response = client.get(reverse("director:detail", args=[factories.tournament().pk]))
    assert response.status_code == 403
    page = response.content.decode()
    assert "Not allowed" in page and "office.css" in page


@pytest.mark.django_db
def test_the_500_page_needs_no_request_context_and_shows_no_internals():
    response = defaults.server_error(RequestFactory().get("/"))
    assert response.status_code == 500
    page = response.content.decode()
    assert "Something went wrong" in page and "office.css" in page
    assert "Traceback" not in page and "Exception" not in page


@pytest.mark.django_db
def test_a_form_without_csrf_token_gets_the_offices_403():
    client = Client(enforce_csrf_checks=True)
    response = client.post(reverse("login"), {"username": "a", "password": "b"})
    assert response.status_code == 403
    page = response.content.decode()
    assert "The form has expired" in page and "Nothing was saved" in page
