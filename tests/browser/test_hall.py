"""The hall, end to end: the office started as `make run` starts it (manage.py serve:
waitress in the command's own process bound to 0.0.0.0, DEBUG off, a temporary data
directory and SQLite database), and a phone-sized
browser coming in through 127.0.0.2 - another device in the hall - opens a table card's
link and enters a deal. The table card prints the hall address (OFFICE_URL), not
loopback. Only loopback addresses are ever connected to."""

from __future__ import annotations

import io
import os
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
from dataclasses import dataclass
from pathlib import Path

import pypdf
import pytest

from .pages import enter, log_in

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
#: "Another device in the hall": a loopback address other than the laptop's own 127.0.0.1.
DEVICE = "127.0.0.2"
#: The test run's settings, which a server started as on a fresh machine must not see.
TEST_ENVIRONMENT = {
    "DEBUG",
    "SECURE",
    "SECRET_KEY",
    "SECRET_KEY_FILE",
    "ALLOWED_HOSTS",
    "OFFICE_URL",
    "DATABASE_URL",
    "PORT",
    "HOST",
    "DJANGO_ALLOW_ASYNC_UNSAFE",
    "DJANGO_SETTINGS_MODULE",
    "SKAT_OFFICE_DATA",
    "STATIC_ROOT",
    "CACHE_DIR",
}


@dataclass(frozen=True)
class Hall:
    #: The phones' address, http://127.0.0.2:PORT (OFFICE_URL).
    base: str
    #: The laptop's own address for the director's browser, http://127.0.0.1:PORT.
    laptop: str
    password: str
    database: Path
    output: str


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("0.0.0.0", 0))
        return probe.getsockname()[1]


def wait_for(process: subprocess.Popen, directory: Path, log: Path, seconds: float = 180) -> None:
    """Until the server says it listens: its last line before serving, "Data directory: ..."
    (flushed once the socket is bound, so a connection from then on is accepted). Its output
    goes on into ``log`` as it comes; no polling of the port."""
    ready = threading.Event()
    said: list[str] = []

    def copy() -> None:
        with log.open("a", encoding="utf-8") as out:
            for line in process.stdout:
                out.write(line)
                out.flush()
                if line.rstrip().endswith(str(directory)):
                    said.append(line)
                    ready.set()
        ready.set()  # the server stopped: said below

    threading.Thread(target=copy, daemon=True).start()
    if not ready.wait(timeout=seconds):  # bounds a hang only
        pytest.fail(f"the office did not start within {seconds} s:\n{log.read_text(errors='replace')}")
    if not said:
        pytest.fail(f"manage.py serve stopped:\n{log.read_text(errors='replace')}")


@pytest.fixture(scope="module")
def hall(tmp_path_factory):
    """The run command's server on a free port, its phones' address http://127.0.0.2:PORT."""
    directory = tmp_path_factory.mktemp("hall")
    port = free_port()
    base = f"http://{DEVICE}:{port}"
    database = directory / "db.sqlite3"
    env = {k: v for k, v in os.environ.items() if k not in TEST_ENVIRONMENT}
    env |= {"DATABASE_URL": f"sqlite:///{database}", "OFFICE_URL": base, "PORT": str(port)}
    # The table link's connection check before play, short (tests/conftest.py: _short_hall_checks).
    env |= {"HALL_CHECK_PINGS": "5", "HALL_CHECK_INTERVAL_MS": "50"}
    env["SKAT_OFFICE_DATA"] = str(directory)  # the collected static files too, not the checkout's
    log = directory / "serve.log"
    process = subprocess.Popen(
        [sys.executable, "manage.py", "serve", "--no-input"],
        cwd=ROOT,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        encoding="utf-8",
        errors="replace",
    )
    try:
        wait_for(process, directory, log)
        output = log.read_text()
        password = re.search(r"Director login created: director / (\S+) \(shown only now", output).group(1)
        yield Hall(base, f"http://127.0.0.1:{port}", password, database, output)
    finally:
        process.send_signal(signal.SIGINT)  # Ctrl-C: the command itself serves, and stops
        try:
            code = process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
            code = None
        assert code == 0, (
            f"Ctrl-C did not stop the office cleanly ({code}):\n{log.read_text(errors='replace')[-2000:]}"
        )


def query(hall: Hall, sql: str, *args) -> list[tuple]:
    with sqlite3.connect(hall.database, timeout=20) as connection:
        return connection.execute(sql, args).fetchall()


def test_the_run_command_says_where_phones_go_and_keeps_its_key_private(hall):
    assert f"Phones in the hall open: {hall.base}/" in hall.output
    assert "▄" in hall.output  # the address's QR code
    assert "The demo tournament is loaded" in hall.output
    assert (hall.database.parent / "staticfiles").is_dir()  # collected into the data directory
    key = hall.database.with_name("db.sqlite3.secret-key")
    assert key.stat().st_mode & 0o777 == 0o600


def test_a_phone_in_the_hall_opens_a_table_card_and_enters_a_deal(hall, desktop, phone):
    # The director, at the laptop itself (127.0.0.1), prints the running series' table
    # cards: they carry the hall address all the same.
    log_in(desktop, hall.laptop, "director", hall.password)
    desktop.wait_for_selector("text=Demo Open")
    [(tournament, series)] = query(
        hall, "SELECT tournament_id, number FROM tournaments_series WHERE status = 'running'"
    )
    cards = desktop.request.get(f"{hall.laptop}/t/{tournament}/series/{series}/cards.pdf")
    assert cards.ok and cards.headers["content-type"] == "application/pdf"
    pages = pypdf.PdfReader(io.BytesIO(cards.body())).pages
    text = "".join(page.extract_text() for page in pages).replace("\n", "")  # a long link takes two lines
    links = re.findall(r"http://[\d.]+:\d+/s/[\w-]+/", text)
    tables = query(
        hall,
        "SELECT token FROM tournaments_table t JOIN tournaments_series s ON t.series_id = s.id "
        "WHERE s.status = 'running' ORDER BY t.number",
    )
    assert links == [f"{hall.base}/s/{token}/" for (token,) in tables]
    assert "127.0.0.1" not in text

    # The scorekeeper's phone scans the first card and enters the next deal.
    link = links[0]
    token = link.rstrip("/").rsplit("/", 1)[1]
    count = "SELECT count(*) FROM scoring_game g JOIN tournaments_table t ON g.table_id = t.id WHERE t.token = ?"
    [(before,)] = query(hall, count, token)
    phone.goto(link)
    # The page's scripts and its service worker settle before the first tap, as a person
    # reading the sheet gives them time to.
    phone.wait_for_load_state("networkidle")
    assert phone.evaluate("typeof htmx") == "object", "whitenoise serves the collected static files"
    declarer = phone.locator("#id_declarer_seat label").first.inner_text().strip()
    enter(phone, declarer, "Grand", tops=1, declarer_points=70)
    try:
        phone.wait_for_selector(f"text=Deal {before + 1} entered")
    except Exception:  # said with what the phone and the office show, then failed
        shown = phone.evaluate(
            "['#connection', '#preview', '#sheet'].map(s => s + ': ' + "
            "((document.querySelector(s) || {}).innerText || '-')).join('\\n')"
        )
        log = (hall.database.parent / "serve.log").read_text(errors="replace")[-3000:]
        pytest.fail(f"deal {before + 1} was not confirmed; the phone shows:\n{shown}\nthe office's log:\n{log}")
    assert query(hall, count, token) == [(before + 1,)]


def test_the_hall_speaks_plain_http_and_shows_no_internals(hall, desktop):
    page = desktop.request.get(f"{hall.base}/accounts/login/", max_redirects=0)
    assert page.status == 200  # no redirect to https
    assert "strict-transport-security" not in page.headers
    assert "secure" not in page.headers["set-cookie"].lower()  # a cookie a plain-HTTP phone keeps
    missing = desktop.request.get(f"{hall.base}/no/such/page/")
    assert missing.status == 404
    assert "urlpatterns" not in missing.text() and "Page not found" in missing.text()
