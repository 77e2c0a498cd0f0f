"""Login throttling: five wrong passwords lock a username, the same answer whether it exists or not.

The parallel tests at the end use real threads, each with its own test client and
database connection; they run on SQLite (the file test database) and PostgreSQL
(DATABASE_URL).
"""

from __future__ import annotations

import contextlib
import re
import threading
from datetime import timedelta

import pytest
from django.contrib.auth.backends import ModelBackend
from django.db import transaction
from django.db.models import F
from django.test import Client, override_settings
from django.urls import reverse

from accounts import throttle
from accounts.models import LoginAttempt
from tests import factories
from tests.threads import in_parallel

pytestmark = pytest.mark.django_db

LOCKED = "Too many failed logins"


def fail(username: str, ip: str, now: float | None = None) -> None:
    """A wrong password as the login form records it: the attempt admitted and counted
    (throttle.begin_attempt), then found wrong (Attempt.failed)."""
    attempt = throttle.begin_attempt(username, ip, now=now)
    assert attempt.wait == 0, attempt
    attempt.failed()


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
    # "anna" in fullwidth letters: Django's login reads it as "anna" (NFKC), so does the lock.
    assert login(Client(), "\uff41\uff4e\uff4e\uff41", "pw", ip="10.0.2.2").status_code == 429


def test_a_unicode_spelling_of_the_username_counts_against_the_same_lock():
    factories.user("anna")
    for i in range(3):
        login(Client(), "anna", "wrong", ip=f"10.0.3.{i}")
    for i in range(2):
        login(Client(), "\uff41nn\uff41", "wrong", ip=f"10.0.4.{i}")  # five in all, under one key
    assert login(Client(), "anna", "pw", ip="10.0.5.1").status_code == 429


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


@override_settings(LOGIN_FAILURE_LIMIT_PER_IP=3, LOGIN_FAILURE_LIMIT_PER_NETWORK=5)
def test_an_ipv6_client_counts_by_its_address_with_a_higher_ceiling_for_its_64():
    """One phone of a hall whose phones share one /64 locks its own address, not the hall;
    a device taking a new address of its /64 for every guess is held by the /64's ceiling."""
    factories.user("anna")
    for name in ("a", "b", "c"):
        assert login(Client(), name, "wrong", ip="2001:db8:7:1::1").status_code == 200
    assert login(Client(), "anna", "pw", ip="2001:db8:7:1::1").status_code == 429
    assert login(Client(), "anna", "pw", ip="2001:db8:7:1::2").status_code == 302  # the phone beside it
    for name, address in (("d", "2001:db8:7:1::3"), ("e", "2001:db8:7:1:abcd::4")):
        assert login(Client(), name, "wrong", ip=address).status_code == 200
    assert login(Client(), "anna", "pw", ip="2001:db8:7:1:ffff::99").status_code == 429  # five in the /64
    assert login(Client(), "anna", "pw", ip="2001:db8:7:2::1").status_code == 302
    # IPv4 by its address; an IPv4-mapped IPv6 address counts as the IPv4 one.
    for name in ("a", "b", "c"):
        login(Client(), name, "wrong", ip="10.6.0.1")
    assert throttle.locked_for("anna", "::ffff:10.6.0.1") > 0
    assert throttle.locked_for("anna", "10.6.0.2") == 0


@override_settings(LOGIN_FAILURE_LIMIT_PER_IP=3, LOGIN_FAILURE_LIMIT_PER_NETWORK=3)
def test_the_office_unlocks_an_ipv6_clients_address_and_64():
    from io import StringIO

    from django.core.management import call_command

    factories.user("anna")
    for name, address in (("a", "2001:db8:8::1"), ("b", "2001:db8:8::2"), ("c", "2001:db8:8::3")):
        login(Client(), name, "wrong", ip=address)
    assert login(Client(), "anna", "pw", ip="2001:db8:8::4").status_code == 429
    call_command("unlocklogin", "anna", "--address", "2001:db8:8::1", stdout=StringIO())
    assert login(Client(), "anna", "pw", ip="2001:db8:8::4").status_code == 302


@override_settings(LOGIN_FAILURE_LIMIT_PER_IP=3)
def test_failures_counted_per_address_before_still_count_until_they_leave_the_window():
    """Rows written by the throttle before it counted a /64 (the key of the address
    itself) still lock that address: an update forgives no guesser."""
    import hashlib

    old_key = f"ip:{hashlib.sha256(b'2001:db8:9::1').hexdigest()}"
    LoginAttempt.objects.bulk_create([LoginAttempt(key=old_key, created=throttle._moment(1000.0)) for _ in range(3)])
    assert throttle.locked_for("anna", "2001:db8:9::1", now=1001.0) == 899
    assert throttle.begin_attempt("anna", "2001:db8:9::1", now=1001.0).wait == 899
    assert throttle.locked_for("anna", "2001:db8:9::1", now=1900.0) == 0
    throttle.clear_failures("anna", "2001:db8:9::1", address_too=True)
    assert not LoginAttempt.objects.filter(key=old_key).exists()


def test_the_lock_ends_when_the_failures_leave_the_window():
    for _ in range(5):
        fail("anna", "10.0.0.1", now=1000.0)
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


@override_settings(LOGIN_FAILURE_LIMIT_PER_IP=3)
def test_successful_logins_never_count_against_the_address_its_failures_stay():
    factories.user("anna")
    for _ in range(5):
        assert login(Client(), "anna", "pw", ip="10.5.0.1").status_code == 302
    login(Client(), "x", "wrong", ip="10.5.0.1")
    login(Client(), "y", "wrong", ip="10.5.0.1")
    assert login(Client(), "anna", "pw", ip="10.5.0.1").status_code == 302
    login(Client(), "z", "wrong", ip="10.5.0.1")
    assert login(Client(), "anna", "pw", ip="10.5.0.1").status_code == 429


def test_a_form_without_a_password_counts_nothing():
    factories.user("anna")
    for _ in range(6):
        assert login(Client(), "anna", "").status_code == 200
    assert not LoginAttempt.objects.exists()
    assert login(Client(), "anna", "pw").status_code == 302


def test_a_refused_attempt_writes_nothing_and_does_not_prolong_the_lock():
    for _ in range(5):
        fail("anna", "10.0.0.1", now=1000.0)
    refused = throttle.begin_attempt("anna", "10.0.0.1", now=1500.0)
    assert refused.wait == 400 and refused.row_ids == ()
    assert LoginAttempt.objects.count() == 10
    admitted = throttle.begin_attempt("anna", "10.0.0.1", now=1900.0)
    assert admitted.wait == 0 and len(admitted.row_ids) == 2


def test_an_admitted_attempt_counts_before_its_password_is_checked():
    for _ in range(4):
        fail("anna", "10.0.0.1", now=1000.0)
    assert throttle.begin_attempt("anna", "10.0.0.2", now=1001.0).wait == 0
    # Still being checked, it already locks the username for everybody else.
    assert throttle.begin_attempt("anna", "10.0.0.3", now=1002.0).wait == 898


def test_expired_attempts_are_pruned_a_bounded_batch_at_a_time(monkeypatch):
    monkeypatch.setattr(throttle, "PRUNE_BATCH", 3)
    for name in ("a", "b", "c"):
        fail(name, "10.0.0.1", now=1000.0)
    fail("d", "10.0.0.2", now=1500.0)
    assert LoginAttempt.objects.count() == 8
    throttle.begin_attempt("e", "10.0.0.3", now=1900.0)  # 6 expired: 3 of them go
    assert LoginAttempt.objects.filter(created__lte=throttle._moment(1000.0)).count() == 3
    throttle.begin_attempt("e", "10.0.0.3", now=1901.0)
    assert not LoginAttempt.objects.filter(created__lte=throttle._moment(1000.0)).exists()
    assert LoginAttempt.objects.count() == 6  # d's two and e's four


def test_an_attempt_must_not_hide_in_an_outer_transaction():
    """Inside another transaction its rows would stay invisible, and on PostgreSQL its
    lock held, until that transaction ends: refused loudly instead."""
    with transaction.atomic(), pytest.raises(RuntimeError, match="durable"):
        throttle.begin_attempt("anna", "10.0.0.1")


# Parallel guessing: a burst of simultaneous logins for one username.

GUESSES = 12


class CountingBackend(ModelBackend):
    """ModelBackend that counts its password checks and, during a burst, holds each check
    until the limit's number of them are under way at once (as PBKDF2's would overlap):
    every guess of the burst that arrives meanwhile meets checks still running. An event
    (a barrier), not a clock; its timeout only bounds a hang when fewer come."""

    calls = 0
    lock = threading.Lock()
    #: While set, each check waits here for the others of its group (None: no hold).
    hold: threading.Barrier | None = None

    def authenticate(self, request, username=None, password=None, **kwargs):
        with CountingBackend.lock:
            CountingBackend.calls += 1
        hold = CountingBackend.hold
        if hold is not None:
            with contextlib.suppress(threading.BrokenBarrierError):
                hold.wait(timeout=60)
        return super().authenticate(request, username=username, password=password, **kwargs)


@pytest.fixture
def counting_backend(settings):
    settings.AUTHENTICATION_BACKENDS = [f"{__name__}.CountingBackend"]
    CountingBackend.calls = 0
    CountingBackend.hold = threading.Barrier(settings.LOGIN_FAILURE_LIMIT)
    yield CountingBackend
    CountingBackend.hold = None


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("url_name", ["login", "admin:login"])
def test_of_parallel_guesses_only_the_limit_reach_the_password_check(counting_backend, settings, url_name):
    factories.user("anna", superuser=True)
    url = reverse(url_name)
    clients = [Client() for _ in range(GUESSES)]
    responses = in_parallel(lambda i: login(clients[i], "anna", f"guess{i}", ip=f"10.7.0.{i}", url=url), GUESSES)
    counting_backend.hold = None  # the burst is over: the logins below come one at a time
    admitted = counting_backend.calls
    assert admitted == settings.LOGIN_FAILURE_LIMIT, f"{admitted} of {GUESSES} guesses reached the password check"
    locked = [r for r in responses if LOCKED in r.content.decode()]
    assert len(locked) == GUESSES - admitted
    if url_name == "login":
        assert sorted(r.status_code for r in responses) == [200] * admitted + [429] * (GUESSES - admitted)
    assert not any("_auth_user_id" in client.session for client in clients)

    # The right password is refused too, from anywhere, without reaching the backend.
    client = Client()
    assert LOCKED in login(client, "anna", "pw", ip="10.8.0.1", url=url).content.decode()
    assert "_auth_user_id" not in client.session
    assert counting_backend.calls == admitted

    # Once the window has passed, it works again, and the expired attempts are gone.
    LoginAttempt.objects.update(created=F("created") - timedelta(seconds=settings.LOGIN_FAILURE_WINDOW))
    assert login(client, "anna", "pw", ip="10.8.0.1", url=url).status_code == 302
    assert "_auth_user_id" in client.session
    assert not LoginAttempt.objects.exists()


@pytest.mark.django_db(transaction=True)
@override_settings(LOGIN_FAILURE_LIMIT=100)
def test_no_parallel_failure_is_lost():
    in_parallel(lambda i: fail("anna", "10.0.0.1"), GUESSES)
    assert throttle.locked_for("anna", "10.0.0.1") == 0
    assert LoginAttempt.objects.count() == 2 * GUESSES


def test_the_right_password_on_the_admin_login_of_a_non_staff_account_is_no_failure():
    """A referee (no staff account) who tries the admin's login with his right password is
    refused there, but that is no guess: six such tries do not lock his office login."""
    factories.user("referee")
    admin = reverse("admin:login")
    for i in range(6):
        response = login(Client(), "referee", "pw", ip=f"10.0.6.{i}", url=admin)
        assert response.status_code == 200 and LOCKED not in response.content.decode()
    assert login(Client(), "referee", "pw", ip="10.0.7.1").status_code == 302


@pytest.mark.django_db(transaction=True)
def test_ten_simultaneous_right_logins_of_one_account_all_get_in(counting_backend):
    """Ten devices of one director log in at the same moment: the attempts still being
    checked hold the limit's places, so the later ones wait in line, not refused (429)."""
    factories.user("anna")
    clients = [Client() for _ in range(10)]
    responses = in_parallel(lambda i: login(clients[i], "anna", "pw", ip=f"10.9.0.{i}"), 10)
    assert [r.status_code for r in responses] == [302] * 10
    assert all("_auth_user_id" in client.session for client in clients)
    assert not LoginAttempt.objects.filter(pending=True).exists()


def test_an_attempt_lost_on_the_way_counts_as_a_failure_after_a_while():
    """A worker killed during the password check leaves its rows "being checked": after
    PENDING_STALE seconds they count as failures, never holding the line for ever."""
    for second in range(5):
        throttle.begin_attempt("anna", "10.0.0.1", now=1000.0 + second)
    assert throttle.locked_for("anna", "10.0.0.1", now=1010.0) == 0
    stale = 1004.0 + throttle.PENDING_STALE + 1
    assert throttle.locked_for("anna", "10.0.0.1", now=stale) > 0
    assert throttle.begin_attempt("anna", "10.0.0.2", now=stale).wait > 0
