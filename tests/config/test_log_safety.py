"""Every log line is safe to copy and to read: no capability in it, no line forged in it.

Every handler the settings configure carries config.logs.SafeRecords: a table link's or a
player's page's token and a secret query parameter become fingerprints, and every control
character a client can put into a path is escaped, so one request writes one line.
"""

from __future__ import annotations

import io
import logging
from urllib.parse import quote

import pytest
from django.conf import settings as django_settings
from django.test import Client

from config.access import log_answer, token_fingerprint
from config.admission import SpectatorAdmission
from config.logs import BatchedStreamHandler, SafeRecords, escape_controls, scrub, without_tokens

FORGED = "2026-12-02 00:00:00 127.0.0.9 POST /t/2/delete/ 302 1ms"
#: Each control character a path may carry once decoded, and how the log writes it.
CONTROLS = {
    "\n": "\\n",
    "\r": "\\r",
    "\t": "\\t",
    "\x00": "\\x00",
    "\x1b": "\\x1b",
    "\x07": "\\x07",
    "\x1f": "\\x1f",
    "\x7f": "\\x7f",
    "\x85": "\\x85",
    "\x9b": "\\x9b",
    "\u2028": "\\u2028",
    "\u202e": "\\u202e",
}


#: The configured handlers' classes (not pytest's capturing handler, a StreamHandler too).
CONFIGURED = (logging.StreamHandler, BatchedStreamHandler)


class Written:
    """One buffer for several handlers; reading it writes what the access log holds back."""

    def __init__(self, stream: io.StringIO, handlers: list[logging.Handler]) -> None:
        self.stream, self.handlers = stream, handlers

    def getvalue(self) -> str:
        for handler in self.handlers:
            handler.flush()
        return self.stream.getvalue()


@pytest.fixture
def written():
    """What the configured handlers write: the console's and the access log's streams
    swapped for one buffer, the access log on."""
    stream = io.StringIO()
    handlers = [h for h in logging.getLogger().handlers if type(h) in CONFIGURED]
    access = logging.getLogger("office.access")
    handlers += [h for h in access.handlers if type(h) in CONFIGURED]
    saved = [h.setStream(stream) for h in handlers]
    level = access.level
    access.setLevel(logging.INFO)
    yield Written(stream, handlers)
    access.setLevel(level)
    for handler, old in zip(handlers, saved, strict=True):
        handler.setStream(old)


def test_every_configured_handler_cleans_its_records():
    handlers = django_settings.LOGGING["handlers"]
    assert handlers and all("safe_records" in h.get("filters", []) for h in handlers.values()), handlers
    live = [h for h in logging.getLogger().handlers if type(h) in CONFIGURED]
    live += [h for h in logging.getLogger("office.access").handlers if type(h) in CONFIGURED]
    assert live and all(any(isinstance(f, SafeRecords) for f in h.filters) for h in live)


@pytest.mark.parametrize("char", sorted(CONTROLS))
def test_each_control_character_is_escaped(char):
    assert escape_controls(f"/a{char}b") == f"/a{CONTROLS[char]}b"
    assert char not in scrub(f"/nothing{char}{FORGED}")


def test_a_traceback_keeps_its_own_line_breaks_and_nothing_else():
    assert escape_controls("line 1\nline\x1b[31m 2", keep_newlines=True) == "line 1\nline\\x1b[31m 2"


@pytest.mark.django_db
@pytest.mark.parametrize("char", sorted(CONTROLS))
def test_a_path_with_a_control_character_writes_one_line_per_logger(written, char):
    """The access line and Django's "Not Found" line: one each, the forged one inside them."""
    Client().get("/nothing" + quote(char) + quote(FORGED))
    lines = written.getvalue().splitlines()
    assert len(lines) == 2, lines
    assert all(char not in line for line in lines)
    assert not any(line.startswith("2026-12-02 00:00:00 127.0.0.9") for line in lines)
    assert any(f"/nothing{CONTROLS[char]}2026-12-02" in line for line in lines)


@pytest.mark.django_db
def test_a_players_token_never_reaches_the_log_csrf_404_or_405(written):
    token = "41-abcdefghijklmnopqrstuvwx"
    client = Client(enforce_csrf_checks=True)
    client.get(f"/me/{token}/")  # Not Found (no such registration)
    client.post(f"/me/{token}/")  # Forbidden (CSRF cookie not set.)
    client.get(f"/s/{token}/preview/")  # Method Not Allowed on a table link
    text = written.getvalue()
    assert token not in text
    assert text.count(f"/me/{token_fingerprint(token)}/") >= 3, text  # the two access lines and Django's
    assert "CSRF cookie not set" in text and f"/s/{token_fingerprint(token)}/preview/" in text


def test_any_logger_and_a_secret_query_parameter_are_cleaned(written):
    logging.getLogger("waitress").warning("Exception while serving /s/%s/?token=%s&key=%s", "T0K3N", "abc", "def")
    text = written.getvalue()
    assert "T0K3N" not in text and "token=abc" not in text and "key=def" not in text
    assert f"/s/{token_fingerprint('T0K3N')}/?token={token_fingerprint('abc')}" in text


def test_the_lookup_is_no_token_and_cleaning_twice_changes_nothing():
    assert without_tokens("/me/find/3/") == "/me/find/3/"
    once = scrub("/s/secret\n/x?sig=1")
    assert scrub(once) == once and "secret" not in once


def test_an_answer_given_below_django_is_in_the_access_log(written):
    """A spectator told "busy" (no Django, no middleware) is a line of the access log too."""

    def app(environ, start_response):  # never reached: the only slot is taken
        raise AssertionError

    admission = SpectatorAdmission(app, slots=1, retry_after=7)
    admission.slots.acquire()
    environ = {"REQUEST_METHOD": "GET", "PATH_INFO": "/p/1/standings/", "QUERY_STRING": "", "REMOTE_ADDR": "10.0.0.7"}
    admission(environ, lambda status, headers, exc_info=None: None)
    (line,) = written.getvalue().splitlines()
    assert " 10.0.0.7 GET /p/1/standings/ 503 " in line


def test_log_answer_cleans_what_the_client_chose(written):
    environ = {"REQUEST_METHOD": "GET\n", "PATH_INFO": "/me/tok\x1b/", "REMOTE_ADDR": "10.0.0.8"}
    log_answer(environ, "404 Not Found", 0.0)
    (line,) = written.getvalue().splitlines()
    assert "GET\\n" in line and "tok" not in line.split("/me/")[1] and " 404 " in line
