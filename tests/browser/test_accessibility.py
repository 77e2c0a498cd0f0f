"""Accessibility as a standing check: axe-core on the pages the evening lives
on, the table link, the desk, the standings, the projector and the paper grid, in
English and German at one size, failing on any serious or critical violation.

axe is injected by Playwright's ``evaluate`` (the DevTools protocol), which the office's
Content-Security-Policy does not govern: the policy real visitors get stays as it is
(tests/browser/test_content_security_policy.py holds it).
"""

from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.contrib.auth.models import User

from tests import factories
from tournaments.models import Registration

from .pages import log_in

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]


def _evening():
    director = User.objects.create_user("leiter", password="pw")
    t, series = factories.drawn(8, directors=[director], standings_public=True, rounds_per_series=1)
    t.categories.create(name="Damen")
    table = series.tables.order_by("number").first()
    factories.game(table, 1, declarer_seat=2, contract="grand", tops=1, tops_kind="with", declarer_points=75)
    Registration.objects.filter(tournament=t).update(present=True)
    return t, table


def test_no_serious_or_critical_violation_on_the_evenings_pages(live_server, browser):
    """The five pages in English, then in German (the language cookie the switch sets):
    one browser, one login, one evening (axe takes seconds a page on a busy machine)."""
    t, table = _evening()
    base = live_server.url
    context = browser.new_context(viewport={"width": 1366, "height": 768}, locale="en-GB")
    page = context.new_page()
    log_in(page, base, "leiter")
    pages = {
        "table link": f"/s/{table.token}/",
        "desk": f"/t/{t.pk}/desk/",
        "standings": f"/p/{t.pk}/standings/",
        "projector": f"/p/{t.pk}/live/",
        "grid": f"/t/{t.pk}/series/1/table/{table.number}/grid/",
    }
    axe = Axe()
    found = {}
    for language in ("en", "de"):
        context.add_cookies([{"name": "django_language", "value": language, "url": base}])
        for name, path in pages.items():
            page.goto(base + path)
            assert page.locator("html").get_attribute("lang") == language, (name, language)
            violations = axe.run(page).response["violations"]
            bad = [
                f"{v['id']} ({v['impact']}): {v['help']} at {[n['target'] for n in v['nodes']][:3]}"
                for v in violations
                if v["impact"] in ("serious", "critical")
            ]
            if bad:
                found[f"{name} ({language})"] = bad
    context.close()
    assert not found, found
