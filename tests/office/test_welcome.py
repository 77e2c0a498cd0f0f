"""The launcher's first page: the hall address and its QR code, the director's login only when just made."""

from __future__ import annotations

import pytest
from django.utils import translation

from office import welcome
from office.director import DirectorLogin, ensure_director


@pytest.mark.django_db
def test_the_first_start_shows_the_generated_login():
    login = ensure_director()
    page = welcome.page("http://192.168.1.20:8000", "http://127.0.0.1:8000", login)
    assert '<a href="http://192.168.1.20:8000/">http://192.168.1.20:8000/</a>' in page
    assert 'href="http://127.0.0.1:8000/"' in page
    assert "<svg" in page and "<script" not in page
    assert f"<code>{login.password}</code>" in page and "<code>director</code>" in page


@pytest.mark.django_db
def test_a_later_start_shows_no_password():
    kept = DirectorLogin(ensure_director().user)
    page = welcome.page("http://192.168.1.20:8000", "http://127.0.0.1:8000", kept)
    assert "Password:" not in page
    assert "Log in as director with the password written down at the first start." in page


@pytest.mark.django_db
def test_the_page_speaks_german():
    login = ensure_director()
    with translation.override("de"):
        page = welcome.page("http://192.168.1.20:8000", "http://127.0.0.1:8000", login)
    assert 'lang="de"' in page
    assert "Das Büro öffnen" in page and "Passwort:" in page
