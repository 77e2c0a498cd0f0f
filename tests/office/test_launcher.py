"""The double-click (``Skat Office.cmd`` -> ``python -m office.launcher``): one office per data folder,
the browser on the first page, the shortcut once."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from core import datalock
from office import launcher


@pytest.fixture(autouse=True)
def _environment(monkeypatch):
    """The launcher sets the environment for the settings to come: restored after each test.

    Django is set up once for the whole run: a second ``django.setup()`` would bind the log
    handlers to this test's captured output, closed when the test ends, and a later test
    writing a log line would meet a closed file.
    """
    monkeypatch.setattr("django.setup", lambda *args, **kwargs: None)
    saved = dict(os.environ)
    yield
    os.environ.clear()
    os.environ.update(saved)


@pytest.fixture
def opened(monkeypatch):
    """What the browser was asked to open."""
    targets: list[str] = []
    monkeypatch.delenv(launcher.NO_BROWSER_ENV, raising=False)
    monkeypatch.setattr(launcher.webbrowser, "open", targets.append)
    return targets


class Health(BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(200 if self.path == "/healthz" else 404)
        self.end_headers()
        self.wfile.write(b"ok")

    def log_message(self, *args):
        pass


@pytest.fixture
def office_answering():
    """An office's /healthz on a loopback port, as the launcher probes it."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), Health)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def test_a_port_in_use_is_passed_over():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert port < launcher.free_port("127.0.0.1", port) < port + launcher.PORTS_TRIED


def test_the_record_is_empty_when_missing_or_unreadable(tmp_path):
    assert launcher.read_record(tmp_path) == {}
    (tmp_path / launcher.RECORD).write_text("{not json", encoding="utf-8")
    assert launcher.read_record(tmp_path) == {}
    (tmp_path / launcher.RECORD).write_text("[1, 2]", encoding="utf-8")
    assert launcher.read_record(tmp_path) == {}
    (tmp_path / launcher.RECORD).write_text('{"local_url": "http://127.0.0.1:8000"}', encoding="utf-8")
    assert launcher.read_record(tmp_path) == {"local_url": "http://127.0.0.1:8000"}


def test_an_office_answering_at_the_recorded_port_is_running(tmp_path, office_answering):
    assert launcher.running(tmp_path) is None
    (tmp_path / launcher.RECORD).write_text(json.dumps({"local_url": office_answering}), encoding="utf-8")
    assert launcher.running(tmp_path) == {"local_url": office_answering}
    assert launcher.answers(office_answering)


def test_only_this_computer_is_probed():
    # A recorded address elsewhere is never asked (and nothing answers at a closed port).
    assert not launcher.answers("http://192.0.2.1:8000")
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    assert not launcher.answers(f"http://127.0.0.1:{port}")


def test_an_office_holding_the_data_folder_is_running(tmp_path):
    with datalock.DataLock(tmp_path, purpose="serve"):
        assert launcher.running(tmp_path) == {}
    assert launcher.running(tmp_path) is None


def test_the_browser_opens_unless_switched_off(opened, monkeypatch, capsys):
    launcher.open_browser("file:///welcome.html")
    assert opened == ["file:///welcome.html"]
    monkeypatch.setenv(launcher.NO_BROWSER_ENV, "1")
    launcher.open_browser("file:///other.html")
    assert opened == ["file:///welcome.html"]
    assert "no browser opened on file:///other.html" in capsys.readouterr().out


def test_the_browser_opens_once_the_office_listens(opened):
    with socket.socket() as listening:
        listening.bind(("127.0.0.1", 0))
        listening.listen()
        launcher.open_when_listening(listening.getsockname()[1], "file:///w.html").join(timeout=10)
    assert opened == ["file:///w.html"]


def package(tmp_path: Path) -> Path:
    folder = tmp_path / "Skat Office"
    folder.mkdir()
    (folder / "Skat Office.cmd").write_text("@echo off\r\n")
    return folder


def test_the_shortcut_is_made_once_on_windows(tmp_path, monkeypatch, capsys):
    calls = []

    def powershell(command, env, **kwargs):
        calls.append((command, env["SKAT_OFFICE_TARGET"]))
        link = tmp_path / "Desktop" / "Skat Office.lnk"
        link.parent.mkdir(exist_ok=True)
        link.write_bytes(b"L")
        return subprocess.CompletedProcess(command, 0, stdout=f"{link}\r\n")

    monkeypatch.setattr(launcher.sys, "platform", "win32")
    monkeypatch.setattr(launcher.subprocess, "run", powershell)
    data, folder = tmp_path / "data", package(tmp_path)
    data.mkdir()
    launcher.make_shortcut(data, folder)
    launcher.make_shortcut(data, folder)
    assert len(calls) == 1
    assert calls[0][0][0] == "powershell" and "CreateShortcut" in calls[0][0][-1]
    assert calls[0][1] == str(folder / "Skat Office.cmd")
    assert (data / launcher.SHORTCUT_MARK).is_file()
    assert "on the desktop and in the Start menu" in capsys.readouterr().out


def test_no_shortcut_is_said_and_tried_again_next_time(tmp_path, monkeypatch, capsys):
    def no_powershell(command, **kwargs):
        raise FileNotFoundError("powershell")

    monkeypatch.setattr(launcher.sys, "platform", "win32")
    monkeypatch.setattr(launcher.subprocess, "run", no_powershell)
    data, folder = tmp_path / "data", package(tmp_path)
    data.mkdir()
    launcher.make_shortcut(data, folder)
    assert "No desktop shortcut made" in capsys.readouterr().out
    assert not (data / launcher.SHORTCUT_MARK).exists()


def test_a_powershell_that_makes_no_file_made_no_shortcut(tmp_path, monkeypatch, capsys):
    # wine's powershell.exe is a stub: it exits 0 and makes nothing.
    monkeypatch.setattr(launcher.sys, "platform", "win32")
    monkeypatch.setattr(launcher.subprocess, "run", lambda command, **k: subprocess.CompletedProcess(command, 0, ""))
    data, folder = tmp_path / "data", package(tmp_path)
    data.mkdir()
    launcher.make_shortcut(data, folder)
    assert "No desktop shortcut made (PowerShell made no shortcut file)" in capsys.readouterr().out
    assert not (data / launcher.SHORTCUT_MARK).exists()


def test_no_shortcut_outside_windows_or_the_package(tmp_path, monkeypatch):
    monkeypatch.setattr(launcher.subprocess, "run", lambda *a, **k: pytest.fail("PowerShell called"))
    monkeypatch.setattr(launcher.sys, "platform", "linux")
    launcher.make_shortcut(tmp_path, package(tmp_path))
    monkeypatch.setattr(launcher.sys, "platform", "win32")
    launcher.make_shortcut(tmp_path, tmp_path / "checkout")


@pytest.mark.django_db
def test_the_first_start_writes_the_first_page_with_the_login_once(tmp_path, settings):
    settings.OFFICE_URL, settings.DATA_DIR = "http://192.168.1.20:8001", tmp_path
    page = launcher.prepare(tmp_path, 8001, tmp_path / "no package")
    text = page.read_text("utf-8")
    assert "http://192.168.1.20:8001/" in text and "<svg" in text
    assert "http://127.0.0.1:8001/" in text
    assert "shown only now" in text
    record = json.loads((tmp_path / launcher.RECORD).read_text("utf-8"))
    assert record["office_url"] == "http://192.168.1.20:8001"
    assert record["local_url"] == "http://127.0.0.1:8001"
    assert record["welcome"] == str(page)
    # The next start: the login is kept, its password not shown again.
    again = launcher.prepare(tmp_path, 8001, tmp_path / "no package").read_text("utf-8")
    assert "shown only now" not in again and "password written down at the first start" in again


def test_a_second_start_opens_the_running_office(tmp_path, monkeypatch, opened, capsys):
    page = tmp_path / launcher.WELCOME
    page.write_text("<html></html>", encoding="utf-8")
    monkeypatch.setenv("SKAT_OFFICE_DATA", str(tmp_path))
    monkeypatch.setattr(launcher.datadir, "prepare", lambda argv: argv)
    monkeypatch.setattr(launcher, "running", lambda folder: {"welcome": str(page)})
    monkeypatch.setattr("django.core.management.execute_from_command_line", lambda argv: pytest.fail("served"))
    assert launcher.main([]) == 0
    assert opened == [page.as_uri()]
    assert "The office runs already" in capsys.readouterr().out


@pytest.mark.django_db
def test_a_first_start_serves_on_the_port_it_chose(tmp_path, monkeypatch, opened, settings):
    ran = {}
    settings.OFFICE_URL, settings.DATA_DIR = "http://192.168.1.20:8003", tmp_path
    monkeypatch.setenv("SKAT_OFFICE_DATA", str(tmp_path))
    monkeypatch.setenv("OFFICE_URL", "http://192.168.1.20:8003")
    monkeypatch.setattr(launcher, "free_port", lambda: 8003)
    monkeypatch.setattr(launcher.datadir, "prepare", lambda argv: argv)
    monkeypatch.setattr(launcher, "open_when_listening", lambda port, target: ran.setdefault("open", (port, target)))
    monkeypatch.setattr("django.core.management.execute_from_command_line", lambda argv: ran.setdefault("argv", argv))
    assert launcher.main(["--no-demo"]) == 0
    assert ran["argv"] == ["skat-office", "serve", "--port", "8003", "--no-input", "--no-demo"]
    assert ran["open"] == (8003, (tmp_path / launcher.WELCOME).as_uri())
    assert (tmp_path / launcher.WELCOME).is_file()


@pytest.mark.django_db
def test_a_database_of_a_newer_office_is_left_to_serve_to_refuse(tmp_path, settings, monkeypatch):
    settings.OFFICE_URL, settings.DATA_DIR = "http://192.168.1.20:8001", tmp_path
    monkeypatch.setattr("office.upgrades.refusal", lambda folder: "This database was used by a newer version")
    monkeypatch.setattr("office.upgrades.migrate", lambda folder: pytest.fail("migrated"))
    assert launcher.prepare(tmp_path, 8001, tmp_path / "no package") is None
    assert not (tmp_path / launcher.WELCOME).exists() and not (tmp_path / launcher.RECORD).exists()


@pytest.mark.django_db
def test_a_data_folder_another_office_holds_is_left_to_serve_to_refuse(tmp_path, settings, monkeypatch):
    settings.OFFICE_URL, settings.DATA_DIR = "http://192.168.1.20:8001", tmp_path
    monkeypatch.setattr("office.upgrades.migrate", lambda folder: pytest.fail("migrated"))
    with datalock.DataLock(tmp_path, purpose="serve"):
        assert launcher.prepare(tmp_path, 8001, tmp_path / "no package") is None
    assert not (tmp_path / launcher.WELCOME).exists()


@pytest.mark.django_db
def test_the_lock_is_free_for_serve_after_the_first_page(tmp_path, settings):
    settings.OFFICE_URL, settings.DATA_DIR = "http://192.168.1.20:8001", tmp_path
    assert launcher.prepare(tmp_path, 8001, tmp_path / "no package") is not None
    assert datalock.holder(tmp_path) is None
