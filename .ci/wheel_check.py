"""CI: the office as a director installs it, from the wheel, outside the checkout.

Builds the sdist and from it the wheel (``python -m build``), installs the wheel into a
fresh virtualenv in a temporary folder, starts ``skat-office serve --bind 127.0.0.1
--port P --data-dir TMP --no-input --processes 2`` from an empty folder, and as a browser would
(plain HTTP, urllib) opens the front page, a static file, a German page and a table
link, and enters a deal there with the page's CSRF token and cookie; runs a tiny
``skat-office loadtest`` from the installed office (no manage.py there). Then it stops the
office with SIGINT (Ctrl-C) and checks it has exited, its second process too. Exits non-zero, saying what
failed, at the first thing that does not hold. Loopback only.

Run from the checkout: ``.venv/bin/python .ci/wheel_check.py`` (.ci/run does).
"""

from __future__ import annotations

import http.cookiejar
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"
#: The settings of the test run that an office started as on a fresh machine must not see.
SCRUBBED = (
    "DJANGO_SETTINGS_MODULE",
    "DATABASE_URL",
    "DATABASE_PASSWORD",
    "DATABASE_PASSWORD_FILE",
    "DEBUG",
    "SECURE",
    "SECRET_KEY",
    "SECRET_KEY_FILE",
    "ALLOWED_HOSTS",
    "OFFICE_URL",
    "PORT",
    "HOST",
    "CACHE_DIR",
    "STATIC_ROOT",
    "DOCS_ROOT",
    "SKAT_OFFICE_DATA",
    "VIRTUAL_ENV",
    "PYTHONPATH",
)
#: A table of the demo's running series, its next deal's fields (a valid random deal), as the office's own shell says.
TABLE_SCRIPT = """
import json, random
from office.demo import random_game
from perf.fixtures import entry_data
from tournaments.models import Table
for table in Table.objects.filter(series__number=2).order_by("number"):
    number = table.games.count() + 1
    if number <= table.series.tournament.deals_per_table(table.size):
        fields = entry_data(random_game(random.Random(7), number, table.size))
        fields.pop("client_id")
        print(json.dumps({"url": table.entry_url(), "number": number, "fields": fields}))
        break
"""


STARTED = time.monotonic()
#: What the transcript's lines begin with (.ci/windows.py says "windows check").
NAME = "wheel check"
#: The load test's audit, clean: every deal stored once, as entered, and no server error.
LOADTEST_AUDIT = re.compile(r"lost 0, duplicated 0, not as entered 0, never confirmed 0.*\nerrors +0; 5xx: 0", re.S)


def loadtest_check(script: Path, env: dict, work: Path) -> None:
    """A tiny ``skat-office loadtest`` from the installed office, which has no manage.py: it
    serves a scratch database and audits it. Its timing targets are not this machine's
    business (the office serves beside it), so a run that misses them counts when the
    audit is clean."""
    folder = work / "loadtest"
    folder.mkdir()
    command = [str(script), "loadtest", "--clients", "4", "--rounds", "1", "--think", "0.2"]
    command += ["--double", "0.3", "--retry", "0.3", "--data-dir", str(folder / "data")]
    done = subprocess.run(command, cwd=folder, env=env, capture_output=True, text=True, timeout=600)
    if not LOADTEST_AUDIT.search(done.stdout):
        output = f"{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
        fail(f"skat-office loadtest exited {done.returncode} without a clean audit:\n{output}")
    step(f"skat-office loadtest served and audited a scratch database (exit {done.returncode}: timing targets aside)")


def step(text: str) -> None:
    print(f"{NAME} ({time.monotonic() - STARTED:.0f} s): {text}", flush=True)


def fail(text: str) -> None:
    print(f"{NAME} FAILED: {text}", file=sys.stderr, flush=True)
    raise SystemExit(1)


def run(command: list[str], **kwargs) -> subprocess.CompletedProcess:
    done = subprocess.run(command, capture_output=True, text=True, **kwargs)
    if done.returncode != 0:
        fail(f"{' '.join(map(str, command))} exited {done.returncode}:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}")
    return done


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return probe.getsockname()[1]


def build_wheel(out: Path) -> Path:
    """The sdist, and the wheel built from it (what a package index would hold)."""
    run([sys.executable, "-m", "build", "--no-isolation", "--outdir", str(out), str(ROOT)])
    wheels = sorted(out.glob("skat_office-*.whl"))
    if not wheels:
        fail(f"no wheel in {out}")
    return wheels[-1]


def install(wheel: Path, venv: Path) -> Path:
    run([sys.executable, "-m", "venv", str(venv)])
    python = venv / ("Scripts" if os.name == "nt" else "bin") / "python"
    run([str(python), "-m", "pip", "install", "-q", "--no-compile", "--disable-pip-version-check", str(wheel)])
    script = python.with_name("skat-office.exe" if os.name == "nt" else "skat-office")
    if not script.exists():
        fail(f"the wheel installed no console script {script.name}")
    return script


def wait_for_port(process: subprocess.Popen, port: int, log: Path, seconds: float = 180) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            fail(f"skat-office serve exited {process.returncode} before it listened:\n{log.read_text()[-3000:]}")
        try:
            with socket.create_connection((HOST, port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.3)
    fail(f"skat-office serve did not listen within {seconds:.0f} s:\n{log.read_text()[-3000:]}")


class Browser:
    """urllib with a cookie jar, to 127.0.0.1 only; answers are (status, headers, text)."""

    def __init__(self, port: int) -> None:
        self.base = f"http://{HOST}:{port}"
        self.cookies = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.cookies))

    def open(self, path: str, data: dict | None = None, headers: dict | None = None) -> tuple[int, dict, str]:
        body = urllib.parse.urlencode(data).encode() if data is not None else None
        request = urllib.request.Request(self.base + path, data=body, headers=headers or {})
        try:
            with self.opener.open(request, timeout=30) as answer:
                return answer.status, dict(answer.headers), answer.read().decode("utf-8", "replace")
        except urllib.error.HTTPError as error:
            return error.code, dict(error.headers), error.read().decode("utf-8", "replace")

    def cookie(self, name: str) -> str:
        return next((c.value for c in self.cookies if c.name == name), "")


def check_pages(browser: Browser, office: list[str], env: dict, cwd: Path, **run_options) -> dict:
    """The front page, a static file, German, and a deal entered at a table link; the table's line.

    ``office`` runs the office's commands (``[skat-office]``; under wine ``[wine, python.exe, -m,
    office.cli]``), with ``run_options`` (wine's stdin).
    """
    status, _headers, front = browser.open("/")
    if status != 200:
        fail(f"the front page answered {status}")
    step("the front page answers 200")
    static = re.search(r'(/static/[^"]+\.css)', front)
    if not static:
        fail("the front page links no stylesheet")
    status, headers, _css = browser.open(static.group(1))
    if status != 200 or "css" not in headers.get("Content-Type", ""):
        fail(f"the static file {static.group(1)} answered {status} {headers.get('Content-Type')}")
    step(f"the static file {static.group(1)} answers 200")
    status, _headers, login = Browser(int(browser.base.rsplit(":", 1)[1])).open(
        "/accounts/login/", headers={"Accept-Language": "de"}
    )
    if status != 200 or "Anmelden" not in login:
        fail(f"the login page in German answered {status} without 'Anmelden' (translations not compiled?)")
    step("the login page speaks German to a German browser")
    status, _headers, help_page = browser.open("/help/")
    if status != 200 or "Skat tournament office" not in help_page:
        fail(f"the help /help/ answered {status}: the wheel carries no built help (setup.py builds it)")
    step("the help answers at /help/")
    shell = run([*office, "shell", "-v", "0", "-c", TABLE_SCRIPT], env=env, cwd=cwd, **run_options).stdout
    table = next((json.loads(line) for line in shell.splitlines() if line.startswith("{")), None)
    if not table:
        fail("the demo has no table left to enter a deal at")
    status, _headers, page = browser.open(table["url"])
    if status != 200:
        fail(f"the table link {table['url']} answered {status}")
    step(f"the table link answers 200 (deal {table['number']} next)")
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
    client_id = re.search(r'name="client_id" value="([0-9a-f-]{36})"', page)
    if not token or not client_id:
        fail("the table link's page has no entry form (CSRF token, client id)")
    form = table["fields"] | {"client_id": client_id.group(1), "csrfmiddlewaretoken": token.group(1)}
    headers = {"HX-Request": "true", "HX-Current-URL": browser.base + table["url"], "Referer": browser.base + "/"}
    status, _headers, answer = browser.open(table["url"], data=form, headers=headers)
    if status != 200 or f"Deal {table['number']} entered" not in answer:
        fail(f"entering deal {table['number']} answered {status}: {answer[:500]}")
    step(f"deal {table['number']} entered through the table link")
    return table


def main() -> None:
    started = time.monotonic()
    work = Path(tempfile.mkdtemp(prefix="skat-wheel-check-"))
    process = None
    try:
        step("building the sdist and the wheel")
        wheel = build_wheel(work / "dist")
        step(f"installing {wheel.name} into a fresh virtualenv")
        script = install(wheel, work / "venv")
        empty, data, port = work / "empty", work / "data", free_port()
        empty.mkdir()
        env = {k: v for k, v in os.environ.items() if k not in SCRUBBED} | {"LANG": "C.UTF-8"}
        log = work / "serve.log"
        command = [str(script), "serve", "--bind", HOST, "--port", str(port), "--data-dir", str(data), "--no-input"]
        command += ["--processes", "2"]  # a second serving process (office.workers), whatever the cores
        step(" ".join(command[1:]) + " (from an empty folder)")
        with log.open("w") as output:
            process = subprocess.Popen(command, cwd=empty, env=env, stdout=output, stderr=subprocess.STDOUT)
        wait_for_port(process, port, log)
        check_pages(Browser(port), [str(script)], env | {"SKAT_OFFICE_DATA": str(data)}, empty)
        run([str(script), "backup"], env=env | {"SKAT_OFFICE_DATA": str(data)}, cwd=empty)
        made = sorted((data / "backups").glob("*.sqlite3"))
        if not made:
            fail(f"skat-office backup made no file in {data / 'backups'}")
        step(f"skat-office backup wrote {made[-1].name} while the office served")
        loadtest_check(script, env, work)
        process.send_signal(signal.SIGINT)
        try:
            code = process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            fail("skat-office serve did not stop within 20 s of SIGINT (Ctrl-C)")
        if code != 0 or "The office has stopped." not in log.read_text():
            fail(f"skat-office serve exited {code} after SIGINT:\n{log.read_text()[-2000:]}")
        try:  # the second process stopped with the first: nothing listens any more
            with socket.create_connection((HOST, port), timeout=2):
                fail(f"port {port} still answers after skat-office serve exited: a serving process outlived it")
        except OSError:
            pass
        if list(empty.iterdir()):
            fail(f"serve wrote into the folder it was started from: {sorted(p.name for p in empty.iterdir())}")
        if not (data / "db.sqlite3").is_file() or not (data / "staticfiles").is_dir():
            kept = sorted(p.name for p in data.iterdir())
            fail(f"the data directory lacks the database or the static files: {kept}")
        step(f"stopped by SIGINT, exit 0; everything in {data.name}/ ({time.monotonic() - started:.0f} s)")
    finally:
        if process is not None and process.poll() is None:
            process.kill()
            process.wait()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
