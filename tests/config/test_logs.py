"""The error log: a refusal to a logged-in user is one line, a server error keeps its traceback."""

from __future__ import annotations

import io
import logging

import pytest
from django.test import Client
from django.urls import reverse

from tests import factories


@pytest.fixture
def log():
    """What the office's console handler would write for django.request (its filter applies)."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(logging.Formatter("%(levelname)s %(message)s"))
    logging.getLogger().addHandler(handler)
    yield stream
    logging.getLogger().removeHandler(handler)


@pytest.mark.django_db
def test_a_refusal_to_a_logged_in_user_is_one_line(log):
    client = Client()
    client.force_login(factories.user())
    for _ in range(3):
        assert client.get(reverse("director:detail", args=[factories.tournament().pk])).status_code == 403
    lines = log.getvalue().splitlines()
    assert len(lines) == 3, lines
    assert all(line.startswith("WARNING Forbidden (Permission denied): /t/") for line in lines)
    assert "Traceback" not in log.getvalue()


def test_a_server_error_keeps_its_traceback(log):
    try:
        raise ValueError("a bug")
    except ValueError:
        logging.getLogger("django.request").error(
            "Internal Server Error: /x/", exc_info=True, extra={"status_code": 500}
        )
    assert "Traceback" in log.getvalue() and "ValueError: a bug" in log.getvalue()


@pytest.mark.django_db
def test_a_400_for_a_foreign_host_header_is_one_log_line(log, settings):
    """Severity low. README: "A refusal is one line in the log ... only a server error keeps
    its traceback". The filter (config.logs.OneLineRefusals) sits on ``django.request`` only;
    Django logs a SuspiciousOperation refusal (400) on ``django.security.<Name>`` with the
    exception's traceback, which the filter never sees. Anyone on the hall's network sending
    ``Host: evil.example`` (or a body over DATA_UPLOAD_MAX_MEMORY_SIZE, or more than 1,000
    fields, to any form) writes a 20-line traceback per request - the flood the fix was to
    end. Expected: one line, no "Traceback"."""
    settings.ALLOWED_HOSTS = ["testserver"]
    client = Client(HTTP_HOST="evil.example")
    for _ in range(3):
        assert client.get("/").status_code == 400
    assert "Traceback" not in log.getvalue(), log.getvalue()
    assert len(log.getvalue().splitlines()) == 3, log.getvalue()


@pytest.fixture
def terminal():
    """What the director's terminal shows: every handler on the way from django.request to
    the root writes into one stream (the settings' console and any Django adds itself)."""
    stream = io.StringIO()
    handlers = []
    logger = logging.getLogger("django.request")
    while logger is not None:
        handlers += [h for h in logger.handlers if type(h) is logging.StreamHandler]  # not pytest's
        logger = logger.parent if logger.propagate else None
    saved = [h.setStream(stream) for h in handlers]
    yield stream
    for handler, old in zip(handlers, saved, strict=True):
        handler.setStream(old)


@pytest.mark.django_db
def test_a_403_and_a_csrf_failure_are_one_line_each_in_the_terminal_with_debug_on(terminal, settings):
    """With DEBUG on (``manage.py runserver``) Django's own console handler on
    "django" printed every refusal a second time, beside the root's."""
    settings.DEBUG = True
    client = Client(enforce_csrf_checks=True)
    client.force_login(factories.user())
    assert client.get(reverse("director:detail", args=[factories.tournament().pk])).status_code == 403
    assert client.post(reverse("director:detail", args=[factories.tournament().pk])).status_code == 403
    lines = terminal.getvalue().splitlines()
    assert len(lines) == 2, lines
    assert lines[0].startswith("Forbidden (Permission denied): /t/"), lines
    assert lines[1].startswith("Forbidden (CSRF token missing.): /t/"), lines
    assert "Traceback" not in terminal.getvalue()
