"""`manage.py serve` (`make run`): what it prepares and how it starts gunicorn. The
server itself is started for real in tests/browser/test_hall.py; here gunicorn's exec
and the static files' collection are recorded instead of run."""

from __future__ import annotations

import io
import re
import stat
import subprocess
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.utils import translation

from config import hall
from office import serve
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
    """Runs the command; returns what gunicorn would have been started with."""
    settings.SECRET_KEY_FILE = tmp_path / "db.sqlite3.secret-key"
    for name in ("OFFICE_URL", "SECRET_KEY", "SECURE", "PORT", "HOST", "LANG", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    calls = {}
    monkeypatch.setattr(serve, "collect_static", lambda env: calls.setdefault("static", env))
    monkeypatch.setattr(serve, "exec_server", lambda argv, env: calls.update(argv=argv, env=env))
    monkeypatch.setattr(hall, "detect", lambda: hall.HallAddress("192.168.1.20", "wlan0"))

    def run(*args: str) -> dict:
        out, err = io.StringIO(), io.StringIO()
        call_command("serve", "--no-input", *args, stdout=out, stderr=err)
        return calls | {"out": out.getvalue(), "err": err.getvalue()}

    return run


def test_the_first_start_prepares_the_hall_and_execs_gunicorn_on_the_network(started, settings):
    run = started("--port", "8123")
    assert run["argv"][1:6] == ["-m", "gunicorn", "config.wsgi:application", "--bind", "0.0.0.0:8123"]
    env = run["env"]
    assert run["static"] is env  # collected with the settings gunicorn runs with
    assert (env["DEBUG"], env["SECURE"], env["PORT"]) == ("0", "0", "8123")
    assert env["OFFICE_URL"] == "http://192.168.1.20:8123"
    # The secret key: generated once beside the database, private, read by every worker.
    assert env["SECRET_KEY_FILE"] == str(settings.SECRET_KEY_FILE)
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


def test_a_second_start_keeps_key_login_and_tournaments(started, settings):
    first = started()
    key = settings.SECRET_KEY_FILE.read_text()
    second = started()
    assert settings.SECRET_KEY_FILE.read_text() == key
    assert "Director login: director (password unchanged)" in second["out"]
    assert "demo" not in second["out"] and Tournament.objects.count() == 1
    assert first["argv"][5] == "0.0.0.0:8000"


def test_the_demo_goes_only_into_an_empty_database(started):
    factories.tournament(name="Stadtmeisterschaft")
    started()
    assert list(Tournament.objects.values_list("name", flat=True)) == ["Stadtmeisterschaft"]
    started("--no-demo")


def test_no_demo_keeps_an_empty_database_empty(started):
    started("--no-demo")
    assert not Tournament.objects.exists()


def test_port_office_url_secure_and_a_secret_key_from_the_environment(started, monkeypatch, settings):
    monkeypatch.setenv("PORT", "9001")
    monkeypatch.setenv("OFFICE_URL", "https://skat.example.org/")
    monkeypatch.setenv("SECURE", "1")
    monkeypatch.setenv("SECRET_KEY", "hall-key-" * 7)
    run = started("--bind", "127.0.0.1", "--workers", "3", "--threads", "2")
    argv = run["argv"]
    assert argv[argv.index("--bind") + 1] == "127.0.0.1:9001"
    assert argv[argv.index("--workers") + 1] == "3" and argv[argv.index("--threads") + 1] == "2"
    assert (run["env"]["OFFICE_URL"], run["env"]["SECURE"]) == ("https://skat.example.org", "1")
    assert "SECRET_KEY_FILE" not in run["env"] and not settings.SECRET_KEY_FILE.exists()
    assert "network interface" not in run["out"]


def test_without_a_network_it_says_phones_cannot_reach_it(started, monkeypatch):
    monkeypatch.setattr(hall, "detect", lambda: hall.HallAddress("127.0.0.1", "lo"))
    run = started()
    assert run["env"]["OFFICE_URL"] == "http://127.0.0.1:8000"
    assert "No network found: http://127.0.0.1:8000 opens on this computer only" in run["err"]


def test_the_terminal_speaks_german_when_its_language_is(started, monkeypatch):
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    assert "Handys im Saal öffnen" in started()["out"]
    assert serve.terminal_language() == "de"
    monkeypatch.setenv("LANG", "C")
    assert serve.terminal_language() == "en"


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
    monkeypatch.setattr(serve, "exec_server", lambda argv, env: None)
    call_command("serve", stdout=out, stderr=io.StringIO())
    assert get_user_model().objects.get(username="director").check_password("Kreuz-Bube-1997")
    assert "Kreuz-Bube-1997" not in out.getvalue() and "the one you chose" in out.getvalue()


def test_the_server_pieces():
    assert serve.default_workers() in (2, 3, 4)
    argv = serve.gunicorn_argv("0.0.0.0", 8000, 2, 4)
    assert argv[argv.index("--worker-class") + 1] == "gthread"
    assert serve.terminal_qr("http://192.168.1.20:8000/").count("\n") > 10


def test_make_run_serves_the_network_on_the_chosen_port_and_make_dev_stays_on_loopback():
    root = Path(__file__).resolve().parents[2]

    def dry_run(*args: str) -> str:
        return subprocess.run(["make", "-n", *args], cwd=root, capture_output=True, text=True, check=True).stdout

    run = dry_run("run", "PORT=9123")
    assert "PORT=9123 .venv/bin/python manage.py serve --bind 0.0.0.0 --port 9123" in run
    assert "runserver" not in run and "8000" not in run
    dev = dry_run("dev", "PORT=9123")
    assert "DEBUG=1 OFFICE_URL=http://127.0.0.1:9123 .venv/bin/python manage.py runserver 127.0.0.1:9123" in dev
