"""Device cookies (accounts.devices): a stranger's failures cannot lock the director out.

- A successful login on the office's login page leaves a signed cookie naming the login;
  that browser's later attempts count only against its cookie, never against the username
  or the address, so failures from any other device do not lock it.
- Its own failures lock that cookie alone, after LOGIN_FAILURE_LIMIT within the window.
- A cookie for another login, a forged or tampered one is no cookie: the attempt is untrusted.
- The cookie is sent to the login pages only, HttpOnly.
"""

from __future__ import annotations

import pytest
from django.core import signing
from django.test import Client
from django.urls import reverse

from accounts import devices
from tests import factories

pytestmark = pytest.mark.django_db


def login(client: Client, username: str, password: str, ip: str = "10.20.0.1"):
    return client.post(reverse("login"), {"username": username, "password": password}, REMOTE_ADDR=ip)


def trusted_browser(username: str, password: str = "pw", ip: str = "10.20.0.1") -> Client:
    """A browser that logged in once and logged out again: only its device cookie is left."""
    first = Client()
    assert login(first, username, password, ip).status_code == 302
    cookie = first.cookies[devices.COOKIE]
    browser = Client()
    browser.cookies[devices.COOKIE] = cookie.value
    return browser


def test_a_strangers_failures_against_director_do_not_lock_the_directors_browser():
    factories.user("director")
    own = trusted_browser("director")
    for i in range(12):  # many strangers, many addresses, the first-start account's name
        login(Client(), "director", f"guess-{i}", ip=f"10.20.1.{i}")
    assert login(Client(), "director", "pw", ip="10.20.2.1").status_code == 429  # a new device: locked
    assert login(own, "director", "pw", ip="10.20.2.1").status_code == 302  # the director's own: in


def test_a_trusted_browser_is_not_locked_by_its_address_or_its_64_either(settings):
    settings.LOGIN_FAILURE_LIMIT_PER_IP = 3
    settings.LOGIN_FAILURE_LIMIT_PER_NETWORK = 3
    factories.user("director")
    own = trusted_browser("director", ip="2001:db8:20::1")
    for name in ("a", "b", "c", "d"):
        login(Client(), name, "wrong", ip="2001:db8:20::1")  # the same address: a phone behind it
    assert login(Client(), "director", "pw", ip="2001:db8:20::1").status_code == 429
    assert login(own, "director", "pw", ip="2001:db8:20::1").status_code == 302


def test_a_trusted_browsers_own_failures_lock_only_that_browser():
    factories.user("anna")
    own = trusted_browser("anna")
    for _ in range(5):
        assert login(own, "anna", "wrong").status_code == 200
    refused = login(own, "anna", "pw")
    assert refused.status_code == 429 and "Too many failed logins" in refused.content.decode()
    assert login(Client(), "anna", "pw", ip="10.20.3.1").status_code == 302  # untrusted budget untouched


def test_a_success_on_a_trusted_browser_forgets_its_failures():
    factories.user("anna")
    own = trusted_browser("anna")
    for _ in range(4):
        login(own, "anna", "wrong")
    assert login(own, "anna", "pw").status_code == 302
    for _ in range(4):
        assert login(own, "anna", "wrong").status_code == 200
    assert login(own, "anna", "pw").status_code == 302


def test_a_cookie_for_another_login_or_a_forged_one_is_untrusted():
    factories.user("anna")
    factories.user("director")
    annas = trusted_browser("anna")
    for i in range(5):
        login(Client(), "director", f"guess-{i}", ip=f"10.20.4.{i}")
    assert login(annas, "director", "pw").status_code == 429  # anna's cookie does not vouch for director
    forged = Client()
    forged.cookies[devices.COOKIE] = signing.dumps([[devices.username_digest("director"), "x"]], salt="another")
    assert login(forged, "director", "pw").status_code == 429
    value = annas.cookies[devices.COOKIE].value
    assert devices.trusted_nonce(_request_with(value), "anna")
    tampered = value[:-1] + ("A" if value[-1] != "A" else "B")
    assert devices.trusted_nonce(_request_with(tampered), "anna") is None


def _request_with(value: str):
    from django.test import RequestFactory

    request = RequestFactory().get("/")
    request.COOKIES[devices.COOKIE] = value
    return request


def test_one_browser_holds_the_cookies_of_several_logins():
    factories.user("anna")
    factories.user("bert")
    browser = Client()
    assert login(browser, "anna", "pw").status_code == 302
    browser.post(reverse("logout"))
    browser.cookies.pop("sessionid", None)
    assert login(browser, "bert", "pw").status_code == 302
    request = _request_with(browser.cookies[devices.COOKIE].value)
    assert devices.trusted_nonce(request, "ANNA") and devices.trusted_nonce(request, "bert")
    assert devices.trusted_nonce(request, "carl") is None


def test_the_cookie_is_the_login_pages_only_and_hidden_from_scripts():
    factories.user("anna")
    response = login(Client(), "anna", "pw")
    cookie = response.cookies[devices.COOKIE]
    assert cookie["path"] == "/accounts/" and cookie["httponly"] and cookie["samesite"] == "Lax"
    assert int(cookie["max-age"]) == devices.AGE
    assert devices.COOKIE not in login(Client(), "anna", "wrong").cookies  # a failure gives none


def test_the_office_unlocks_a_trusted_browser_too():
    from io import StringIO

    from django.core.management import call_command

    factories.user("anna")
    own = trusted_browser("anna")
    for _ in range(5):
        login(own, "anna", "wrong")
    assert login(own, "anna", "pw").status_code == 429
    call_command("unlocklogin", "ANNA", stdout=StringIO())
    assert login(own, "anna", "pw").status_code == 302
