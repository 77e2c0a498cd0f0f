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
