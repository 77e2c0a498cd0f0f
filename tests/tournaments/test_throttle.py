"""Login throttling: five wrong passwords lock a username, the same answer whether it exists or not."""

from __future__ import annotations

import re

import pytest
from django.test import Client, override_settings
from django.urls import reverse

from tests import factories
from tournaments import throttle

pytestmark = pytest.mark.django_db

LOCKED = "Too many failed logins"


def login(client, username, password, ip="10.0.0.1", url=None):
    return client.post(url or reverse("login"), {"username": username, "password": password}, REMOTE_ADDR=ip)


def test_five_failures_lock_the_username_even_for_the_right_password():
    factories.user("anna")
    client = Client()
    for _ in range(5):
        response = login(client, "anna", "wrong")
        assert response.status_code == 200
        assert LOCKED not in response.content.decode()
    response = login(client, "anna", "pw")
    assert response.status_code == 429
    assert LOCKED in response.content.decode()
    assert "_auth_user_id" not in client.session
    # Another username from another address is not affected.
    factories.user("bert")
    assert login(Client(), "bert", "pw", ip="10.0.0.2").status_code == 302


def test_the_lock_covers_other_spellings_and_addresses_of_the_username():
    factories.user("anna")
    for i in range(5):
        login(Client(), "anna", "wrong", ip=f"10.0.1.{i}")
    assert login(Client(), "ANNA ", "pw", ip="10.0.2.1").status_code == 429


def test_an_unknown_username_is_answered_exactly_like_a_known_one():
    factories.user("anna")
    answers = {}
    for name in ("anna", "nobody"):
        client = Client()
        pages = [login(client, name, "wrong", ip=f"10.1.0.{len(answers)}") for _ in range(6)]
        answers[name] = [(p.status_code, _without_tokens(p.content.decode()).replace(name, "NAME")) for p in pages]
    assert answers["anna"] == answers["nobody"]
    assert answers["anna"][-1][0] == 429


def _without_tokens(page: str) -> str:
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", page)


def test_a_success_clears_the_usernames_count():
    factories.user("anna")
    client = Client()
    for _ in range(4):
        login(client, "anna", "wrong")
    assert login(client, "anna", "pw").status_code == 302
    for _ in range(4):
        assert login(Client(), "anna", "wrong").status_code == 200
    assert login(Client(), "anna", "pw").status_code == 302


@override_settings(LOGIN_FAILURE_LIMIT_PER_IP=3)
def test_one_address_guessing_many_usernames_is_locked():
    factories.user("anna")
    for name in ("a", "b", "c"):
        login(Client(), name, "wrong", ip="10.9.9.9")
    assert login(Client(), "anna", "pw", ip="10.9.9.9").status_code == 429
    assert login(Client(), "anna", "pw", ip="10.9.9.8").status_code == 302


def test_the_lock_ends_when_the_failures_leave_the_window():
    for _ in range(5):
        throttle.record_failure("anna", "10.0.0.1", now=1000.0)
    assert throttle.locked_for("anna", "10.0.0.1", now=1000.0) == 900
    assert throttle.locked_for("anna", "10.0.0.1", now=1899.5) == 1
    assert throttle.locked_for("anna", "10.0.0.1", now=1900.0) == 0


def test_the_admin_login_is_throttled_too():
    factories.user("root", superuser=True)
    url = reverse("admin:login")
    for _ in range(5):
        login(Client(), "root", "wrong", url=url)
    response = login(Client(), "root", "pw", url=url)
    assert LOCKED in response.content.decode()
    assert "_auth_user_id" not in response.client.session


@override_settings(PROXY_COUNT=1)
def test_behind_a_proxy_the_forwarded_address_counts():
    for _ in range(5):
        Client().post(reverse("login"), {"username": "x", "password": "y"}, HTTP_X_FORWARDED_FOR="1.2.3.4, 10.0.0.9")

    class Request:
        META = {"HTTP_X_FORWARDED_FOR": "spoofed, 10.0.0.9", "REMOTE_ADDR": "127.0.0.1"}

    assert throttle.client_ip(Request()) == "10.0.0.9"
    assert throttle.client_ip(None) == "unknown"


def test_without_a_proxy_a_forged_forwarded_header_is_ignored():
    class Request:
        META = {"HTTP_X_FORWARDED_FOR": "1.2.3.4", "REMOTE_ADDR": "10.0.0.7"}

    assert throttle.client_ip(Request()) == "10.0.0.7"


def test_the_cache_table_is_created_by_migrate():
    from django.db import connection

    assert "skat_office_cache" in connection.introspection.table_names()


def test_the_office_unlocks_a_username_at_once():
    from io import StringIO

    from django.core.management import call_command

    factories.user("anna")
    for _ in range(5):
        login(Client(), "anna", "wrong", ip="10.3.0.1")
    assert login(Client(), "anna", "pw", ip="10.3.0.2").status_code == 429
    out = StringIO()
    call_command("unlocklogin", "anna", stdout=out)
    assert "anna: unlocked (was locked for" in out.getvalue()
    assert login(Client(), "anna", "pw", ip="10.3.0.2").status_code == 302


@override_settings(LOGIN_FAILURE_LIMIT_PER_IP=2)
def test_the_office_unlocks_an_address_too():
    from io import StringIO

    from django.core.management import call_command

    factories.user("anna")
    for name in ("x", "y"):
        login(Client(), name, "wrong", ip="10.4.0.1")
    assert login(Client(), "anna", "pw", ip="10.4.0.1").status_code == 429
    out = StringIO()
    call_command("unlocklogin", "anna", "--address", "10.4.0.1", stdout=out)
    assert login(Client(), "anna", "pw", ip="10.4.0.1").status_code == 302
    call_command("unlocklogin", "nobody", stdout=out)
    assert "nobody: unlocked (was not locked)" in out.getvalue()
