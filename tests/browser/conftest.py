"""Headless Chromium (Debian's /usr/bin/chromium) driven by Playwright; no browser download."""

from __future__ import annotations

import os
import shutil

import pytest
from django.core.servers.basehttp import WSGIServer

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-background-networking", "--disable-component-update", "--disable-gpu"]


class SerialWSGIServer(WSGIServer):
    """The live server, one request at a time.

    The in-memory test database has one connection, which pytest-django hands to the
    live server; Django's threaded live server then runs two requests (say the phone's
    live value and its submit) on that one connection at once, and SQLite answers
    "database table is locked": a 500 no real server gives (each of its requests has
    its own connection to the file database). Serving the browser's requests in turn
    keeps the test about the app.
    """

    def __init__(self, *args, connections_override=None, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.connections_override = connections_override


@pytest.fixture(scope="session")
def live_server(request):
    """pytest-django's live server with :class:`SerialWSGIServer` (same address options)."""
    from pytest_django.live_server_helper import LiveServer

    addr = request.config.getvalue("liveserver") or os.getenv("DJANGO_LIVE_TEST_SERVER_ADDRESS") or "localhost"
    server = LiveServer(addr, start=False)
    server.thread.server_class = SerialWSGIServer
    server.start()
    assert isinstance(server.thread.httpd, SerialWSGIServer)
    yield server
    server.stop()


@pytest.fixture(scope="session")
def browser():
    if not shutil.which(CHROMIUM):
        pytest.fail(f"{CHROMIUM} not found: install Debian's chromium (make test does it as root)")
    # Playwright's sync API runs an event loop in this thread; the test's own ORM calls
    # (setting up users, reading results) are still synchronous and safe.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    from playwright.sync_api import expect, sync_playwright

    # Five seconds, Playwright's default for an expectation, is short for a CI machine
    # that runs two workers, their live servers and their browsers on two cores.
    expect.set_options(timeout=15_000)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield browser
        browser.close()


@pytest.fixture
def desktop(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-GB")
    yield context.new_page()
    context.close()


@pytest.fixture
def phone(browser):
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True, locale="en-GB"
    )
    yield context.new_page()
    context.close()
