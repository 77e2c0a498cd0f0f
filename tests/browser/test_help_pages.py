"""The help pages in a real browser, served by the office at /help/ as the hall sees them:
no policy violation, no console or script error, nothing fetched from another host, the
theme's search answering offline, in English and German, on a desktop and on a phone.

The site is built from mkdocs.yml into a temporary folder (not strict: the screenshots
may not be taken yet on this machine; ``make docs`` is the strict build).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from .test_content_security_policy import Watched

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]

ROOT = Path(django_settings.BASE_DIR)
#: Where the pages' screenshots go, to be looked at (BROWSER_SCREENSHOTS, else the temp dir).
LOOK = Path(os.environ.get("BROWSER_SCREENSHOTS") or "/tmp")
PAGES = {
    "help-en": "/help/",
    "help-de": "/help/de/",
    "help-de-evening": "/help/de/directors/getting-started/",
    "help-en-table-link": "/help/scorekeepers/table-link/",
    "help-en-benchmarks": "/help/developers/benchmarks/",
}


class NotTheScreenshots(list):
    """Problems, less a screenshot not taken yet on this machine (make docs takes them)."""

    def append(self, problem: str) -> None:
        if "/img/screens/" not in problem:
            super().append(problem)


def build(site: Path) -> Path:
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    command = [sys.executable, "-m", "mkdocs", "build", "-q", "-f", str(ROOT / "mkdocs.yml"), "-d", str(site)]
    subprocess.run(command, check=True, env=env, cwd=ROOT, capture_output=True)
    return site


@pytest.mark.parametrize(
    ("device", "options"),
    [
        ("desktop", {"viewport": {"width": 1366, "height": 768}}),
        ("phone", {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}),
    ],
)
def test_the_help_runs_under_the_policy_and_offline(live_server, browser, settings, tmp_path, device, options):
    settings.DOCS_ROOT = build(tmp_path / "site")
    context = browser.new_context(locale="en-GB", **options)
    # The hall has no internet: any request to another host fails the test.
    outside: list[str] = []
    context.route(
        "**/*",
        lambda route: (
            route.continue_()
            if route.request.url.startswith(live_server.url)
            else (outside.append(route.request.url), route.abort())
        ),
    )
    page = Watched(context.new_page())
    page.problems = NotTheScreenshots()
    for name, url in PAGES.items():
        page.visit(name, live_server.url + url)
        page.page.screenshot(path=str(LOOK / f"{name}-{device}.png"))
    # The theme's search: its worker and index come from the office.
    page.page.goto(live_server.url + "/help/de/")
    # The worker loads the index after the page: typed before it is ready, a query finds
    # nothing until typed again (on a busy machine that took longer than one wait).
    if device == "phone":
        page.page.click("label[for=__search]")
    page.page.fill("input.md-search__input", "Reizwert")
    for attempt in range(3):
        if attempt:  # the same query again: an input event the ready worker answers
            page.page.press("input.md-search__input", "Backspace")
            page.page.type("input.md-search__input", "t")
        try:
            page.page.wait_for_selector(".md-search-result__item", timeout=15_000)
            break
        except PlaywrightTimeout:
            if attempt == 2:
                raise
    page.page.screenshot(path=str(LOOK / f"help-de-search-{device}.png"))
    page.check("search")
    assert outside == []
    context.close()
