"""`manage.py serve` (`make run`, `skat-office serve`): what it prepares and how it serves.
The server itself is started for real in tests/browser/test_hall.py (and from the wheel
in .ci/wheel_check.py); here the server and the static files' collection are recorded
instead of run."""

from __future__ import annotations

import io
import os
import re
import signal
import socket
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.utils import translation

from config import hall
from office import serve, workers
from office.management.commands import serve as command
from tests import factories
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _english():
    """The messages in English, whatever language an earlier test left active."""
    with translation.override("en"):
        yield


@pytest.fixture
def started(monkeypatch, settings, tmp_path):
    """Runs the command; returns what the server would have been started with, and the settings it serves."""
    settings.SECRET_KEY_FILE = tmp_path / "db.sqlite3.secret-key"
    settings.DATA_DIR = tmp_path
    settings.SECRET_KEY = settings.SECRET_KEY  # serve puts the key file's in force: restored after the test
    for name in ("OFFICE_URL", "SECRET_KEY", "SECURE", "PORT", "HOST", "LANG", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    calls = {}
    monkeypatch.setattr(serve, "collect_static", lambda: calls.setdefault("static", settings.OFFICE_URL))
    monkeypatch.setattr(serve, "port_problem", lambda bind, port: None)
    monkeypatch.setattr(workers, "listening_socket", lambda bind, port: f"{bind}:{port}")
    monkeypatch.setattr(serve, "create_server_on", lambda sock, threads: ("server", sock, threads))

    class Children:
        """The other serving processes, as they would have been started (office.workers)."""

        def __init__(self, sock, count, target, threads, office_url, port):
            assert target is serve.child_main
            calls["children"] = (sock, count, threads, office_url, port)

        def start(self):
            return self

    monkeypatch.setattr(workers, "Children", Children)
    monkeypatch.setattr(serve, "serve_forever", lambda server, children=None: calls.update(server=server))
    monkeypatch.setattr(hall, "detect", lambda: hall.HallAddress("192.168.1.20", "wlan0"))

    def run(*args: str) -> dict:
        out, err = io.StringIO(), io.StringIO()
        call_command("serve", "--no-input", *args, stdout=out, stderr=err)
        return calls | {"out": out.getvalue(), "err": err.getvalue(), "office_url": settings.OFFICE_URL}

    return run


def test_the_first_start_prepares_the_hall_and_serves_the_network_in_its_own_process(started, settings):
    run = started("--port", "8123")
    assert run["server"] == ("server", "0.0.0.0:8123", serve.DEFAULT_THREADS)
    # The hall address, on the cards and accepted as the host, set before the static files and the server.
    assert run["static"] == run["office_url"] == "http://192.168.1.20:8123" and settings.PORT == 8123
    assert "192.168.1.20" in settings.ALLOWED_HOSTS
    # The secret key: generated once beside the database, private.
    assert stat.S_IMODE(settings.SECRET_KEY_FILE.stat().st_mode) == 0o600
    out = run["out"]
    assert "Phones in the hall open: http://192.168.1.20:8123/" in out
    assert "found on the network interface wlan0" in out
    assert "▄" in out  # the QR code, drawn for the terminal
    password = re.search(r"Director login created: director / (\S+) \(shown only now", out).group(1)
    director = get_user_model().objects.get(username="director")
    assert director.check_password(password)
    demo = Tournament.objects.get()
    assert demo.is_director(director) and "The demo tournament is loaded" in out
    assert run["err"] == ""


def test_more_processes_serve_on_the_same_socket_one_per_core_by_default(started, monkeypatch):
    monkeypatch.setattr(workers.cores, "usable", lambda: 2)
    assert started("--port", "8123")["children"] == (
        "0.0.0.0:8123",
        1,
        serve.DEFAULT_THREADS,
        "http://192.168.1.20:8123",
        8123,
    )
    monkeypatch.setattr(workers.cores, "usable", lambda: 12)
    assert started()["children"][1] == 3  # four at most: the director's browser needs a core too
    assert started("--processes", "1", "--threads", "4")["children"][1:3] == (0, 4)
    monkeypatch.setenv("SERVE_PROCESSES", "2")  # the environment's choice, as PORT and HOST
    assert started()["children"][1] == 1


@pytest.mark.parametrize("name, option", [("SERVE_PROCESSES", "--processes"), ("PORT", "--port")])
def test_a_number_in_the_environment_that_is_none_is_refused_naming_it(started, monkeypatch, name, option):
    monkeypatch.setenv(name, "four")
    with pytest.raises(CommandError, match=rf"argument {option}: invalid int value: 'four'"):
        started()


@pytest.mark.parametrize("processes", ["0", "17", "-1"])
def test_a_number_of_processes_out_of_range_is_refused_with_what_to_do(started, processes):
    with pytest.raises(CommandError, match=r"--processes must be from 1 to 16, e.g. --processes \d"):
        started("--processes", processes)


def test_a_second_start_keeps_key_login_and_tournaments(started, settings):
    first = started()
    key = settings.SECRET_KEY_FILE.read_text()
    second = started()
    assert settings.SECRET_KEY_FILE.read_text() == key
    assert "Director login: director (password unchanged)" in second["out"]
    assert "demo" not in second["out"] and Tournament.objects.count() == 1
    assert first["server"][1] == "0.0.0.0:8000"


def test_the_demo_goes_only_into_an_empty_database(started):
    factories.tournament(name="Stadtmeisterschaft")
    started()
    assert list(Tournament.objects.values_list("name", flat=True)) == ["Stadtmeisterschaft"]
    started("--no-demo")


def test_no_demo_keeps_an_empty_database_empty(started):
    started("--no-demo")
    assert not Tournament.objects.exists()


def test_port_office_url_and_a_secret_key_from_the_environment(started, monkeypatch, settings):
    monkeypatch.setenv("PORT", "9001")
    monkeypatch.setenv("OFFICE_URL", "https://skat.example.org/")
    monkeypatch.setenv("SECRET_KEY", "hall-key-" * 7)
    run = started("--bind", "127.0.0.1", "--threads", "2")
    assert run["server"] == ("server", "127.0.0.1:9001", 2)
    assert run["office_url"] == "https://skat.example.org" and "skat.example.org" in settings.ALLOWED_HOSTS
    assert not settings.SECRET_KEY_FILE.exists()
    assert "network interface" not in run["out"]


def test_without_a_network_it_says_phones_cannot_reach_it(started, monkeypatch):
    monkeypatch.setattr(hall, "detect", lambda: hall.HallAddress("127.0.0.1", "lo"))
    run = started()
    assert run["office_url"] == "http://127.0.0.1:8000"
    assert "No network found: http://127.0.0.1:8000 opens on this computer only" in run["err"]


def test_the_terminal_speaks_german_when_its_language_is(started, monkeypatch):
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    assert "Handys im Saal öffnen" in started()["out"]


def test_at_a_terminal_the_director_types_the_password_twice(monkeypatch):
    answers = iter(["Kreuz-Bube-1997", "Kreuz-Bube-1996", "skat", "skat", "Kreuz-Bube-1997", "Kreuz-Bube-1997"])
    monkeypatch.setattr(command.getpass, "getpass", lambda prompt: next(answers))
    err = io.StringIO()
    cmd = command.Command(stderr=err)
    user = get_user_model()(username="director")
    assert cmd.ask_password(user) == "Kreuz-Bube-1997"
    assert "differ" in err.getvalue() and "too short" in err.getvalue()
    monkeypatch.setattr(command.getpass, "getpass", lambda prompt: "")
    assert cmd.ask_password(user) == ""


def test_a_terminal_start_asks_for_the_password(started, monkeypatch):
    monkeypatch.setattr(command.sys.stdin, "isatty", lambda: True, raising=False)
    monkeypatch.setattr(command.Command, "ask_password", lambda self, user: "Kreuz-Bube-1997")
    out = io.StringIO()
    call_command("serve", stdout=out, stderr=io.StringIO())
    assert get_user_model().objects.get(username="director").check_password("Kreuz-Bube-1997")
    assert "Kreuz-Bube-1997" not in out.getvalue() and "the one you chose" in out.getvalue()


def test_the_server_pieces():
    assert serve.default_workers() in (2, 3, 4)
    argv = serve.gunicorn_argv("0.0.0.0", 8000, 2, 4)
    assert argv[argv.index("--worker-class") + 1] == "gthread"


def test_make_run_serves_the_network_on_the_chosen_port_and_make_dev_stays_on_loopback():
    root = Path(__file__).resolve().parents[2]

    def dry_run(*args: str) -> str:
        return subprocess.run(["make", "-n", *args], cwd=root, capture_output=True, text=True, check=True).stdout

    run = dry_run("run", "PORT=9123")
    assert "PORT=9123 .venv/bin/python manage.py serve --bind 0.0.0.0 --port 9123" in run
    assert "runserver" not in run and "8000" not in run
    dev = dry_run("dev", "PORT=9123")
    assert "DEBUG=1 OFFICE_URL=http://127.0.0.1:9123 .venv/bin/python manage.py runserver 127.0.0.1:9123" in dev


def test_a_port_in_use_is_refused_with_what_to_do(settings, tmp_path, monkeypatch):
    settings.DATA_DIR = tmp_path
    monkeypatch.delenv("MAKELEVEL", raising=False)
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with pytest.raises(CommandError, match=rf"Port {port} is in use on 127.0.0.1 .*--port {port + 1}"):
            call_command("serve", "--no-input", "--bind", "127.0.0.1", "--port", str(port), stdout=io.StringIO())
    assert not Tournament.objects.exists()  # refused before anything was prepared


def test_a_port_in_use_under_make_run_says_make_run_port(monkeypatch):
    """``make run`` takes no ``--port``: started by make (MAKELEVEL), the hint is its PORT=."""
    monkeypatch.setenv("MAKELEVEL", "1")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        problem = serve.port_problem("127.0.0.1", port)
    assert problem.endswith(f"start with another port, e.g. make run PORT={port + 1}.")
    assert "--port" not in problem


def test_a_data_directory_that_cannot_be_written_is_refused(settings, tmp_path):
    (tmp_path / "a-file").write_text("")
    settings.DATA_DIR = tmp_path / "a-file" / "data"
    with pytest.raises(CommandError, match=r"The data directory .*a-file/data cannot be used: .*--data-dir DIR"):
        call_command("serve", "--no-input", stdout=io.StringIO())
    assert not Tournament.objects.exists()


def test_serve_refuses_debug_and_a_port_out_of_range(settings, tmp_path):
    settings.DATA_DIR = tmp_path
    settings.DEBUG = True
    with pytest.raises(CommandError, match="DEBUG is on"):
        call_command("serve", "--no-input", stdout=io.StringIO())
    assert serve.port_problem("127.0.0.1", 70000).startswith("--port 70000 is not a port")


def test_the_entry_point_says_one_line_and_no_traceback(tmp_path):
    """`manage.py serve` (as skat-office serve) with a data directory that cannot be made, and a port in use."""
    root = Path(__file__).resolve().parents[2]
    (tmp_path / "a-file").write_text("")
    unset = ("DJANGO_SETTINGS_MODULE", "DATABASE_URL", "DEBUG", "MAKELEVEL")
    env = {k: v for k, v in os.environ.items() if k not in unset}
    bad = subprocess.run(
        [sys.executable, "manage.py", "serve", "--data-dir", str(tmp_path / "a-file" / "data")],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
    )
    assert bad.returncode == 2 and "Traceback" not in bad.stderr
    assert bad.stderr.strip().count("\n") == 0 and "--data-dir DIR" in bad.stderr
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        busy = subprocess.run(
            [sys.executable, "manage.py", "serve", "--bind", "127.0.0.1", "--port", str(port), "--no-input"],
            cwd=root,
            env=env | {"SKAT_OFFICE_DATA": str(tmp_path / "data")},
            capture_output=True,
            text=True,
            stdin=subprocess.DEVNULL,
        )
    assert busy.returncode == 1 and "Traceback" not in busy.stderr
    assert (
        busy.stderr.strip() == f"CommandError: Port {port} is in use on 127.0.0.1 (another office or program "
        f"listens there): stop it, or start with another port, e.g. --port {port + 1}."
    )


def test_ctrl_c_or_sigterm_closes_the_server_and_returns():
    class Server:
        closed = False

        def run(self):
            raise KeyboardInterrupt  # what SIGINT, and SIGTERM through serve's handler, raise

        def close(self):
            self.closed = True

    before = signal.getsignal(signal.SIGTERM)
    server = Server()
    serve.serve_forever(server)
    assert server.closed
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # even where it was ignored
    assert signal.getsignal(signal.SIGTERM) == before  # restored


def test_ctrl_c_while_the_other_processes_start_stops_them_and_returns():
    """Ctrl-C as soon as the banner shows: the second process is still being spawned."""
    events = []

    class Server:
        def run(self):
            events.append("served")

        def close(self):
            events.append("closed")

    class Children:
        def start(self):
            events.append("starting")
            raise KeyboardInterrupt

        def stop(self):
            events.append("children stopped")

    serve.serve_forever(Server(), Children())
    assert events == ["starting", "closed", "children stopped"]


def test_ctrl_c_before_the_office_serves_says_it_stopped_without_a_traceback(started, monkeypatch):
    def interrupted():
        raise KeyboardInterrupt  # Ctrl-C while the static files are collected

    monkeypatch.setattr(serve, "collect_static", interrupted)
    out = io.StringIO()
    try:
        call_command("serve", "--no-input", stdout=out)
    except KeyboardInterrupt:  # uncaught, it would end the whole test run, not fail this test
        pytest.fail("Ctrl-C while the office prepares left the command: a traceback")
    assert out.getvalue().strip().endswith("The office has stopped.")


def test_a_child_stopped_while_it_starts_ends_quietly(monkeypatch):
    import django

    def interrupted():
        raise KeyboardInterrupt  # Ctrl-C reaches every process of the terminal

    monkeypatch.setattr(django, "setup", interrupted)
    try:
        serve.child_main(None, None, 1, "http://192.168.1.20:8000", 8000)
    except KeyboardInterrupt:  # uncaught, it would end the whole test run, not fail this test
        pytest.fail("Ctrl-C while the child starts left child_main: a traceback")


def test_behind_the_proxy_its_headers_reach_django_and_without_one_they_do_not(settings, monkeypatch):
    """compose.yaml: SECURE=1 and PROXY_COUNT=1 behind an HTTPS proxy. Without the
    proxy's X-Forwarded-Proto every request is redirected to https again, for ever."""
    import config.wsgi

    seen = {}

    def app(environ, start_response):
        seen.update(environ)
        start_response("200 OK", [])
        return [b""]

    def headers_reaching_django() -> set[str]:
        seen.clear()
        server = serve.create_server("127.0.0.1", 0, 1)
        try:
            environ = {"REMOTE_ADDR": "10.0.0.9", "PATH_INFO": "/", "REQUEST_METHOD": "GET"}
            environ |= {"HTTP_X_FORWARDED_PROTO": "https", "HTTP_X_FORWARDED_FOR": "1.2.3.4"}
            server.application(environ, lambda *args: None)
        finally:
            server.close()
        return {name for name in seen if name.startswith("HTTP_X_FORWARDED")}

    monkeypatch.setattr(config.wsgi, "application", app)
    settings.SECURE_PROXY_SSL_HEADER, settings.PROXY_COUNT = ("HTTP_X_FORWARDED_PROTO", "https"), 1
    assert headers_reaching_django() == {"HTTP_X_FORWARDED_PROTO", "HTTP_X_FORWARDED_FOR"}
    settings.SECURE_PROXY_SSL_HEADER, settings.PROXY_COUNT = None, 0
    assert headers_reaching_django() == set()


def test_a_process_holds_500_connections_unless_the_environment_says_otherwise(monkeypatch, caplog):
    """waitress's loop looks at every open connection on each turn: 4,000 per process made
    the loop's own work starve the answering threads at three times the hall (docs: Benchmarks)."""
    monkeypatch.delenv("SERVE_CONNECTION_LIMIT", raising=False)
    assert serve.connection_limit() == 500
    monkeypatch.setenv("SERVE_CONNECTION_LIMIT", "200")
    assert serve.connection_limit() == 200
    for unusable in ("3", "many", "-1", "²", "9" * 5000):
        monkeypatch.setenv("SERVE_CONNECTION_LIMIT", unusable)
        caplog.clear()
        assert serve.connection_limit() == 500
        assert f"SERVE_CONNECTION_LIMIT={unusable[:40]!r} is not a whole number of at least 10" in caplog.text
    monkeypatch.setattr(serve.select, "poll", None, raising=False)
    monkeypatch.delattr(serve.select, "poll")
    monkeypatch.setenv("SERVE_CONNECTION_LIMIT", "4000")
    assert serve.connection_limit() == 500  # Windows' select() takes 512 sockets at most
