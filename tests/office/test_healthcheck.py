"""The container's health check (``python -m office.healthcheck``): healthy only when the
office's /healthz answers 200 on loopback in time; never imports Django."""

from __future__ import annotations

import http.server
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator

import pytest

from office import healthcheck


class Answering(http.server.BaseHTTPRequestHandler):
    status = 200
    body = b'{"status": "ok", "database": "ok", "cache": "ok"}'

    def do_GET(self) -> None:
        self.send_response(self.status if self.path == "/healthz" else 404)
        self.send_header("Content-Type", "application/json")
        self.end_headers()
        self.wfile.write(self.body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def office() -> Iterator[http.server.HTTPServer]:
    """A stand-in for the office on a loopback port: answers /healthz as told."""
    server = http.server.HTTPServer(("127.0.0.1", 0), type("Handler", (Answering,), {}))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()


def address(server: http.server.HTTPServer) -> str:
    return healthcheck.url({"PORT": str(server.server_address[1])})


def test_it_asks_the_port_the_office_serves_on_at_loopback():
    assert healthcheck.url({"PORT": "8123"}) == "http://127.0.0.1:8123/healthz"
    assert healthcheck.url({}) == "http://127.0.0.1:8000/healthz"
    assert healthcheck.url({"PORT": " "}) == "http://127.0.0.1:8000/healthz"


def test_200_is_healthy_and_the_line_shows_the_answer(office):
    assert healthcheck.check(address(office)) == (True, '200 {"status": "ok", "database": "ok", "cache": "ok"}')


def test_503_is_unhealthy_and_the_line_names_the_part_that_failed(office):
    office.RequestHandlerClass.status = 503
    office.RequestHandlerClass.body = b'{"status": "failed", "database": "failed", "cache": "ok"}'
    healthy, line = healthcheck.check(address(office))
    assert not healthy and line == '503 {"status": "failed", "database": "failed", "cache": "ok"}'


def test_nobody_listening_is_unhealthy():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    healthy, line = healthcheck.check(healthcheck.url({"PORT": str(port)}))
    assert not healthy and line.startswith(f"no answer from http://127.0.0.1:{port}/healthz")


def test_an_office_that_does_not_answer_in_time_is_unhealthy():
    """A hung office (every thread busy) fails the check after the timeout instead of holding it."""
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(1)  # accepts the connection, never answers
        healthy, line = healthcheck.check(healthcheck.url({"PORT": str(silent.getsockname()[1])}), timeout=0.3)
    assert not healthy and "timed out" in line


def test_a_port_that_is_no_port_is_unhealthy_not_a_traceback():
    healthy, line = healthcheck.check(healthcheck.url({"PORT": "eighty"}))
    assert not healthy and line.startswith("no answer from http://127.0.0.1:eighty/healthz")


def test_the_module_exits_0_when_healthy_and_1_when_not_without_importing_django(office):
    port = str(office.server_address[1])
    run = [sys.executable, "-c", "import runpy, sys; runpy.run_module('office.healthcheck', run_name='__main__')"]
    env = {"PORT": port, "PATH": "/usr/bin:/bin"}
    assert subprocess.run([sys.executable, "-m", "office.healthcheck"], env=env, capture_output=True).returncode == 0
    office.RequestHandlerClass.status = 503
    failed = subprocess.run(run, env=env, capture_output=True, text=True)
    assert failed.returncode == 1 and failed.stdout.startswith("503 ")
    modules = "import sys, office.healthcheck; print(sorted(m for m in sys.modules if 'django' in m))"
    imported = subprocess.run(
        [sys.executable, "-c", modules],
        capture_output=True,
        text=True,
        check=True,
    )
    assert imported.stdout.strip() == "[]"


def test_a_port_that_names_another_host_is_not_asked():
    """PORT=80@example.org makes http://127.0.0.1:80@example.org/healthz, whose host is
    example.org: nothing leaves the machine, the line says why."""
    healthy, line = healthcheck.check(healthcheck.url({"PORT": "80@example.org"}), timeout=0.01)
    assert not healthy and line.startswith("not asked: http://127.0.0.1:80@example.org/healthz is not on")
