"""The double-click: ``Skat Office.cmd`` in the Windows package runs ``python -m office.launcher``.

A director who never saw a terminal starts the office by a double-click. The launcher:

- serves the data in the user's data folder (``%LOCALAPPDATA%\\skat-office``;
  ``SKAT_OFFICE_DATA`` names another, config.datadir);
- when an office holds that folder already (core.datalock, or the port it recorded
  answers), opens the browser on it instead of starting a second office;
- else chooses a free port from 8000 on, creates the director's login on the first start,
  writes the first page (``welcome.html`` in the data folder: the hall address, its QR
  code and, on the first start only, the director's login and password), records where
  the office listens (``launcher.json``), makes the shortcut "Skat Office" on the desktop
  and in the Start menu (once), opens the browser on the first page as soon as the office
  answers (not with ``SKAT_OFFICE_NO_BROWSER=1``: CI under wine) and serves in this process,
  as ``skat-office serve --no-input`` does, until Ctrl-C or the window is closed.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import threading
import time
import urllib.request
import webbrowser
from pathlib import Path

from django.utils.translation import gettext as _

from config import datadir

#: Set to 1: never open a browser (CI, a machine without one).
NO_BROWSER_ENV = "SKAT_OFFICE_NO_BROWSER"
#: Where the running office is recorded, in the data folder: its addresses and first page.
RECORD = "launcher.json"
WELCOME = "welcome.html"
#: Made once the shortcuts exist: they are not made again at every start.
SHORTCUT_MARK = "shortcut-made"
FIRST_PORT = 8000
PORTS_TRIED = 20
#: The shortcut, by PowerShell's WScript.Shell (every Windows has it); the paths come in
#: through the environment, so no quoting of a folder's name can break the command.
SHORTCUT_SCRIPT = (
    "$shell = New-Object -ComObject WScript.Shell; "
    "foreach ($folder in @([Environment]::GetFolderPath('Desktop'), [Environment]::GetFolderPath('Programs'))) { "
    "$link = $shell.CreateShortcut((Join-Path $folder 'Skat Office.lnk')); "
    "$link.TargetPath = $env:SKAT_OFFICE_TARGET; $link.WorkingDirectory = $env:SKAT_OFFICE_FOLDER; "
    "$link.IconLocation = $env:SKAT_OFFICE_ICON; $link.Save(); Write-Output $link.FullName }"
)


def free_port(bind: str = "0.0.0.0", first: int = FIRST_PORT) -> int:
    """The first port from ``first`` the office can listen on (``first`` when none is)."""
    from office.serve import port_problem

    for port in range(first, first + PORTS_TRIED):
        if port_problem(bind, port) is None:
            return port
    return first


def read_record(data_dir: Path) -> dict:
    """What the last start recorded (``launcher.json``), or {} when nothing readable is."""
    try:
        record = json.loads((data_dir / RECORD).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return record if isinstance(record, dict) else {}


def answers(local_url: str) -> bool:
    """Whether an office answers at ``local_url`` (its /healthz), on this computer."""
    if not local_url.startswith("http://127.0.0.1:"):
        return False
    try:
        with urllib.request.urlopen(local_url + "/healthz", timeout=3) as answer:
            return answer.status == 200
    except OSError:
        return False


def running(data_dir: Path) -> dict | None:
    """The record of the office serving ``data_dir`` now, or None when none does."""
    from core import datalock

    record = read_record(data_dir)
    if datalock.holder(data_dir) is not None or answers(str(record.get("local_url", ""))):
        return record
    return None


def open_browser(target: str) -> None:
    """The default browser on ``target``, unless SKAT_OFFICE_NO_BROWSER=1."""
    if os.environ.get(NO_BROWSER_ENV, "").strip() in ("1", "yes", "true"):
        print(_("(%(setting)s=1: no browser opened on %(target)s)") % {"setting": NO_BROWSER_ENV, "target": target})
        return
    webbrowser.open(target)


def open_when_listening(port: int, target: str, seconds: float = 600) -> threading.Thread:
    """A thread that opens the browser on ``target`` once the office listens on ``port``."""

    def wait_and_open() -> None:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=1):
                open_browser(target)
                return
            time.sleep(0.5)

    thread = threading.Thread(target=wait_and_open, name="open-browser", daemon=True)
    thread.start()
    return thread


def make_shortcut(data_dir: Path, package: Path) -> None:
    """The shortcut "Skat Office" on the desktop and in the Start menu, once (Windows only)."""
    target = package / "Skat Office.cmd"
    if sys.platform != "win32" or not target.is_file() or (data_dir / SHORTCUT_MARK).exists():
        return
    env = os.environ | {
        "SKAT_OFFICE_TARGET": str(target),
        "SKAT_OFFICE_FOLDER": str(package),
        "SKAT_OFFICE_ICON": str(package / "python" / "DLLs" / "py.ico"),
    }
    command = ["powershell", "-NoProfile", "-NonInteractive", "-ExecutionPolicy", "Bypass", "-Command"]
    try:
        done = subprocess.run([*command, SHORTCUT_SCRIPT], env=env, capture_output=True, text=True, timeout=60)
        made = [line.strip() for line in done.stdout.splitlines() if line.strip()]
        why = f"PowerShell exited {done.returncode}" if done.returncode else ""
        if not why and (not made or not all(Path(link).is_file() for link in made)):
            why = "PowerShell made no shortcut file"
    except (OSError, subprocess.TimeoutExpired) as error:
        why = str(error)
    if why:
        print(_("No desktop shortcut made (%(why)s); start the office with %(path)s.") % {"why": why, "path": target})
        return
    (data_dir / SHORTCUT_MARK).write_text(str(target) + "\n", encoding="utf-8")
    print(_("The shortcut Skat Office is on the desktop and in the Start menu."))


def prepare(data_dir: Path, port: int, package: Path) -> Path | None:
    """Before the office serves: the database migrated, the director's login, the first page, the record.

    Done under the data folder's lock and the start's checks (office.start), as serve does
    them; the lock is let go just before serve takes it again. None, touching nothing,
    when a check refuses (another office holds the folder, a damaged database, one a
    newer office migrated): serve then refuses with its one line.
    """
    from django.conf import settings
    from django.core.management.base import CommandError

    from core.files import write_atomic
    from office import start, upgrades, welcome
    from office.director import ensure_director

    folder = Path(settings.DATA_DIR)
    try:
        lock = start.hold(folder)
    except CommandError:
        return None
    try:
        start.check_database()
        if upgrades.refusal(folder):
            return None
        with start.damage_told():
            upgrades.migrate(folder)
        login = ensure_director()
    except CommandError:
        return None
    finally:
        lock.release()
    office_url = settings.OFFICE_URL.rstrip("/")
    local_url = f"http://127.0.0.1:{port}"
    target = data_dir / WELCOME
    write_atomic(target, welcome.page(office_url, local_url, login), private=True)
    record = {"office_url": office_url, "local_url": local_url, "welcome": str(target), "pid": os.getpid()}
    write_atomic(data_dir / RECORD, json.dumps(record, indent=1))
    make_shortcut(data_dir, package)
    return target


def main(argv: list[str] | None = None) -> int:
    """Open the running office, or start one; the exit code of the office."""
    import django
    from django.core.management import execute_from_command_line
    from django.utils import translation

    from office import serve, terminal

    args = list(sys.argv[1:] if argv is None else argv)
    data_dir = datadir.resolve()
    port = free_port()
    # Before the settings load: the address the first page and the table cards carry.
    os.environ.setdefault("OFFICE_URL", serve.hall_url(port)[0])
    command = datadir.prepare(["skat-office", "serve", "--port", str(port), "--no-input", *args])
    django.setup()  # the translations are the package's, compiled into it (setup.py)
    with translation.override(terminal.language()):
        if (record := running(data_dir)) is not None:
            print(_("The office runs already (%(path)s): the browser opens it.") % {"path": data_dir}, flush=True)
            welcome_page = Path(str(record.get("welcome", "")))
            open_browser(welcome_page.as_uri() if welcome_page.is_file() else str(record.get("local_url", "")))
            return 0
        page = prepare(data_dir, port, Path(sys.executable).resolve().parent.parent)
        sys.stdout.flush()
    if page is not None:
        open_when_listening(port, page.as_uri())
    try:
        execute_from_command_line(command)
    except SystemExit as stop:
        return stop.code if isinstance(stop.code, int) else 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
