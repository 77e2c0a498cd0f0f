"""The access log (config/access.py): one line per request with time, client, method,
path, status and milliseconds; a table link's token and any query string never in it."""

from __future__ import annotations

import logging

import pytest

from config.access import loggable_path, token_fingerprint

pytestmark = pytest.mark.django_db


@pytest.fixture
def access_log(caplog):
    logger = logging.getLogger("office.access")
    level = logger.level
    logger.setLevel(logging.INFO)
    with caplog.at_level(logging.INFO, logger="office.access"):
        yield caplog
    logger.setLevel(level)


def test_one_line_per_request(client, access_log):
    client.get("/healthz?probe=1", REMOTE_ADDR="192.168.178.40")
    client.post("/accounts/login/", {"username": "x", "password": "y"}, REMOTE_ADDR="192.168.178.41")
    lines = [r.getMessage() for r in access_log.records if r.name == "office.access"]
    assert len(lines) == 2
    client_, method, path, status, ms = lines[0].split()
    assert (client_, method, path, status) == ("192.168.178.40", "GET", "/healthz", "200") and ms.endswith("ms")
    assert lines[1].startswith("192.168.178.41 POST /accounts/login/ ")


def test_a_table_links_token_is_replaced_by_its_fingerprint(client, access_log):
    token = "Zx81-secret-capability-token"
    client.get(f"/s/{token}/preview/")
    (line,) = [r.getMessage() for r in access_log.records if r.name == "office.access"]
    assert token not in line and f"GET /s/{token_fingerprint(token)}/preview/ 405 " in line
    assert loggable_path(f"/s/{token}/") == f"/s/{token_fingerprint(token)}/"
    assert loggable_path("/p/1/standings/") == "/p/1/standings/"


def test_django_s_own_refusal_line_does_not_carry_the_token_either(client, caplog):
    token = "Zx81-secret-capability-token"
    with caplog.at_level(logging.WARNING, logger="django.request"):
        client.get(f"/s/{token}/preview/")
    (line,) = [r.getMessage() for r in caplog.records if r.name == "django.request"]
    assert line == f"Method Not Allowed (GET): /s/{token_fingerprint(token)}/preview/"


def test_off_by_default_in_development(client, caplog):
    with caplog.at_level(logging.DEBUG):
        client.get("/healthz")
    assert not [r for r in caplog.records if r.name == "office.access"]
