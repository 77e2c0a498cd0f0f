"""What `serve` prints (office.terminal): the password first, every line in the output's
encoding, the QR code only where it can be drawn, and the address it listens on (--bind)."""

from __future__ import annotations

import io
import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from config import hall
from office import serve
from office.management.commands import serve as command
from tests.office import test_serve_command

pytestmark = pytest.mark.django_db

#: The command's fixtures (tests/office/test_serve_command.py): run serve with the server recorded, in English.
started = test_serve_command.started
_english = test_serve_command._english


def test_a_start_writing_to_a_file_in_windows_code_page_prints_the_password_and_no_qr(started, tmp_path):
    """A start from a shortcut, a task or ``> out.txt`` on Windows writes cp1252, which has no
    block characters: the start goes on, the password is in the file, the QR code is not."""
    path = tmp_path / "out.txt"
    with path.open("w", encoding="cp1252") as out:
        call_command("serve", "--no-input", stdout=out, stderr=io.StringIO())
    text = path.read_text(encoding="cp1252")
    password = re.search(r"Director login created: director / (\S+) \(shown only now", text).group(1)
    assert get_user_model().objects.get(username="director").check_password(password)
    assert "▄" not in text and "this output cannot draw one: see the dashboard" in text
    assert "Phones in the hall open: http://192.168.1.20:8000/" in text


def test_the_password_is_printed_before_the_address_and_its_qr_code(started):
    out = started()["out"]
    assert out.index("Director login created") < out.index("Phones in the hall open") < out.index("▄")


def test_bound_to_loopback_it_says_this_computer_only_and_what_phones_need(started, settings):
    run = started("--bind", "127.0.0.1")
    assert run["server"][1] == "127.0.0.1:8000" and run["office_url"] == "http://127.0.0.1:8000"
    assert "Phones in the hall open: http://127.0.0.1:8000/" in run["out"]
    assert (
        "Listening on 127.0.0.1: the office opens on this computer only. For phones, start it with "
        "--bind 0.0.0.0; they would open http://192.168.1.20:8000/"
    ) in run["err"]
    assert "192.168.1.20" not in run["out"]  # not on the QR code either: the office does not listen there


def test_bound_to_one_address_that_address_is_the_hall_address(started, monkeypatch):
    monkeypatch.setattr(hall, "interfaces", lambda: [hall.Interface("eth1", "10.0.0.5")])
    run = started("--bind", "10.0.0.5")
    assert run["office_url"] == "http://10.0.0.5:8000"
    assert "found on the network interface eth1" in run["out"] and run["err"] == ""
    named = started("--bind", "office.hall.lan")  # a name the laptop has: no interface to name
    assert named["office_url"] == "http://office.hall.lan:8000" and "network interface" not in named["out"]


def test_the_help_names_the_thread_default_the_code_uses():
    text = command.Command().create_parser("manage.py", "serve").format_help()
    assert f"(default {serve.DEFAULT_THREADS})" in " ".join(text.split())


def test_serve_version_is_the_offices():
    from skat import __version__

    assert command.Command().get_version().startswith(f"skat-office {__version__} (Django 5.2")


def test_a_real_start_with_its_output_in_a_cp1252_file_serves_and_the_file_has_the_password(tmp_path):
    """As on Windows from a shortcut or ``> out.txt``: manage.py serve in a process of its own,
    PYTHONIOENCODING=cp1252, stdout a file. It serves, and the password is in the file."""
    root = Path(__file__).resolve().parents[2]
    scrubbed = ("DJANGO_SETTINGS_MODULE", "DATABASE_URL", "DEBUG", "OFFICE_URL", "LC_ALL", "LC_MESSAGES")
    env = {k: v for k, v in os.environ.items() if k not in scrubbed}
    env |= {"PYTHONIOENCODING": "cp1252", "LANG": "C", "SKAT_OFFICE_DATA": str(tmp_path / "data")}
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        port = str(free.getsockname()[1])
    out = tmp_path / "out.txt"
    argv = [sys.executable, "manage.py", "serve", "--no-input", "--bind", "127.0.0.1", "--port", port]
    with out.open("wb") as file:
        process = subprocess.Popen(
            [*argv, "--processes", "1"], cwd=root, env=env, stdin=subprocess.DEVNULL, stdout=file, stderr=file
        )
    try:
        deadline = time.monotonic() + 180
        while b"Data directory:" not in out.read_bytes() and process.poll() is None and time.monotonic() < deadline:
            time.sleep(0.3)
    finally:
        process.send_signal(signal.SIGINT)
        try:
            code = process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            code = process.wait()
    text = out.read_bytes().decode("cp1252")
    assert code == 0 and "Traceback" not in text, text
    assert re.search(r"Director login created: director / \S+ \(shown only now", text), text
    assert "this output cannot draw one: see the dashboard" in text and "The office has stopped." in text
