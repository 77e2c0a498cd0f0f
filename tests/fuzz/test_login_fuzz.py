"""Random and malformed logins: never a 500, never logged in by junk, every error shown."""

from __future__ import annotations

import html

import pytest
from django.test import Client, override_settings
from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st

from tests import factories

from .strategies import FUZZ, form_data, junk

pytestmark = pytest.mark.django_db

credentials = form_data(
    {
        "username": st.one_of(st.sampled_from(["anna", "ANNA", " anna", "anna\x00"]), st.text(max_size=200), junk),
        "password": st.one_of(st.sampled_from(["pw", "wrong"]), st.text(max_size=50), junk),
        "next": st.one_of(st.sampled_from(["/", "//evil.example", "https://evil.example/", "/t/1/"]), junk),
    }
)
addresses = st.one_of(st.ip_addresses().map(str), junk)


@pytest.fixture
def anna():
    return factories.user("anna")


@override_settings(PROXY_COUNT=1)
@FUZZ
@given(data=credentials, address=addresses, forwarded=st.one_of(st.just(""), junk), admin=st.booleans())
def test_logging_in(anna, data, address, forwarded, admin):
    client = Client()
    url = reverse("admin:login") if admin else reverse("login")
    response = client.post(url, data, REMOTE_ADDR=address, HTTP_X_FORWARDED_FOR=forwarded)
    assert response.status_code in {200, 302, 429}
    logged_in = "_auth_user_id" in client.session
    if response.status_code == 302:
        # Only the right password logs in, and only to this site.
        assert logged_in and not admin
        assert data.get("password") == "pw"
        assert response.url.startswith("/") and not response.url.startswith("//")
    else:
        assert not logged_in
        form = response.context["form"]
        page = response.content.decode()
        for name, errors in form.errors.items():
            for error in errors:
                assert html.escape(str(error)) in page, (name, error)
