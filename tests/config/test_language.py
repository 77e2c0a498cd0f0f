"""The language switch in every page's top bar: a link (config/language.py), no form, no cookie but its own."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_the_link_sets_the_language_and_goes_back_to_the_page(client, settings):
    call_command("compiletranslations")
    response = client.get(reverse("language", args=["de"]), {"next": "/p/?page=2"})
    assert response.status_code == 302 and response["Location"] == "/p/?page=2"
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "de"
    assert "no-cache" in response["Cache-Control"]
    assert "Skat-Turnierbüro" in client.get("/").content.decode()
    client.get(reverse("language", args=["en"]), {"next": "/"})
    assert "Skat tournament office" in client.get("/").content.decode()


@pytest.mark.parametrize("target", ["https://evil.example/", "//evil.example/p/", "javascript:alert(1)", ""])
def test_it_never_leads_off_this_office(client, target):
    response = client.get(reverse("language", args=["de"]), {"next": target})
    assert response.status_code == 302 and response["Location"] == "/"


def test_a_language_the_office_does_not_speak_is_not_found_and_sets_nothing(client, settings):
    response = client.get("/lang/fr/?next=/")
    assert response.status_code == 404 and settings.LANGUAGE_COOKIE_NAME not in response.cookies


def test_only_get_and_head(client):
    assert client.post(reverse("language", args=["de"]), {"next": "/"}).status_code == 405


def test_every_page_links_both_languages_and_marks_the_current_one(client):
    page = client.get("/?x=1", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert '<strong aria-current="true" lang="en"' in page
    assert 'href="/lang/de/?next=/%3Fx%3D1"' in page
    assert "csrfmiddlewaretoken" not in page  # an anonymous visitor's page holds no token of his
