"""`manage.py loadtest` works end to end: a tiny run under gunicorn on SQLite, then its audit.

Only correctness is asserted (every deal once and as entered, standings equal to the
engine, no 5xx, double submits answered); latency is the command's output, not a test.
"""

from __future__ import annotations

import io
import ipaddress
import re

import pytest
from django.core.management import CommandError, call_command

from office.perf import client, loadtest, scorekeepers, server
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def test_six_scorekeepers_enter_their_tables_and_nothing_is_lost():
    out = io.StringIO()
    try:
        call_command(
            "loadtest",
            *("--clients", "6", "--rounds", "1", "--think", "0.2", "--double", "0.3", "--retry", "0.3"),
            stdout=out,
        )
    except CommandError as error:
        # Only the latency target may miss on a busy test machine.
        assert re.fullmatch(r"load test failed: p99 \d+ ms >= 200 ms", str(error)), str(error)
    text = out.getvalue()
    assert "SQLite, 1 gunicorn worker(s) x 4 thread(s), 6 scorekeepers, 6 tables, 21 deals" in text
    assert "start spread over 0.2 s" in text
    assert "21 dealt, 21 confirmed, 21 stored: lost 0, duplicated 0, not as entered 0, never confirmed 0" in text
    assert "equal to the engine's sheets (21 players)" in text
    assert "errors        0; 5xx: 0" in text
    double = re.search(r"double submits (\d+) \(both answered 200: (\d+)\)", text)
    assert double and double.group(1) == double.group(2)
    assert re.search(r"latency       p50 \d+ ms, p90 \d+ ms, p99 \d+ ms", text)
    assert Tournament.objects.count() == 0  # the run used its own database


def test_the_client_reads_status_headers_and_body():
    raw = b"HTTP/1.1 422 Unprocessable\r\nSet-Cookie: a=1\r\nset-cookie: csrftoken=x; Path=/\r\n\r\n<p>no</p>"
    status, headers, body = client.parse(raw)
    assert status == 422 and body == b"<p>no</p>"
    assert scorekeepers.COOKIE.search(headers["set-cookie"]).group(1) == "x"
    assert loadtest.percentile([0.3, 0.1, 0.2], 0.5) == 0.2 and loadtest.percentile([], 0.99) == 0


def test_the_load_test_only_talks_to_loopback():
    assert ipaddress.ip_address(client.LOOPBACK).is_loopback
    assert server.free_port() > 0
