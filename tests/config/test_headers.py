"""config/headers.py: the policy on every page, no-store on every page of a logged-in user."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests import factories

pytestmark = pytest.mark.django_db


def test_a_public_page_has_the_policy_and_may_be_cached(client):
    t = factories.tournament(standings_public=True)
    response = client.get(reverse("public:standings", args=[t.pk]))
    assert response.status_code == 200
    policy = response["Content-Security-Policy"]
    for directive in ("default-src 'self'", "script-src 'self'", "style-src 'self'", "frame-ancestors 'none'"):
        assert directive in policy
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy
    assert "no-store" not in response.get("Cache-Control", "")


def test_a_director_s_pages_are_never_stored(client, director):
    t = factories.tournament(directors=[director], standings_public=True)
    for url in (
        reverse("director:detail", args=[t.pk]),
        reverse("director:players", args=[t.pk]),
        reverse("public:standings", args=[t.pk]),  # also a public page, while logged in
        reverse("director:export_xlsx", args=[t.pk]),
    ):
        response = client.get(url)
        assert response.status_code == 200, url
        assert "no-store" in response["Cache-Control"] and "private" in response["Cache-Control"], url


def test_no_template_has_inline_script_or_style():
    """What the policy would block, found before a browser does: tests/browser/test_content_security_policy.py."""
    import re
    from pathlib import Path

    from django.conf import settings

    inline = re.compile(r"<script(?![^>]*\bsrc=)|\son[a-z]+\s*=|\sstyle\s*=|<style", re.IGNORECASE)
    # Written to a file on the director's computer and opened from the disk before the office
    # serves (office/welcome.py): never served, so under no policy; it links to no page's files.
    local_files = {"templates/office/welcome.html"}
    found = [
        f"{path.relative_to(settings.BASE_DIR)}: {match.group(0)}"
        for path in sorted(Path(settings.BASE_DIR, "templates").rglob("*.html"))
        if str(path.relative_to(settings.BASE_DIR)) not in local_files
        for match in inline.finditer(path.read_text(encoding="utf-8"))
    ]
    assert found == []
