"""`manage.py loadtest` works end to end: tiny runs of both profiles on SQLite (the tables under waitress as
skat-office serve runs it, the hall under gunicorn, --server), then their audits.

Only correctness is asserted (every deal once and as entered, standings equal to the
engine, no 5xx, double submits answered); latency is the command's output, not a test.
"""

from __future__ import annotations

import io
import ipaddress
import itertools
import random
import re
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from office import serve
from office.workers import default_processes
from perf import client, hall, hall_clients, loadtest, scorekeepers, scratch, server
from tournaments.models import Tournament

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("scratch_template")]


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
    processes = default_processes()  # as skat-office serve: one per core, at most 4
    assert (
        f"SQLite, waitress, {processes} process(es) x {serve.DEFAULT_THREADS} thread(s) (as skat-office serve), "
        "6 scorekeepers, 6 tables, "
        "21 deals" in text
    )
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


def test_the_hall_profile_runs_both_lists_and_the_spectators_and_loses_nothing():
    out = io.StringIO()
    try:
        call_command(
            "loadtest",
            *("--profile", "hall", "--server", "gunicorn", "--tables", "4", "--spectators", "12", "--duration", "4"),
            *("--deal-min", "0.5", "--deal-max", "1", "--poll", "0.5"),
            stdout=out,
        )
    except CommandError as error:
        # Only the latency targets may miss on a busy test machine.
        assert re.fullmatch(r"load test failed: (entry|standings) p99 .*", str(error)), str(error)
        assert "lost" not in str(error) and "5xx" not in str(error)
    text = out.getvalue()
    assert "hall profile, gunicorn, 2 worker(s) x 4 thread(s) on 127.0.0.2, 4 tables x 2 lists, 12 spectators" in text
    assert "series 2: 4 tables, running, no deal entered" in text
    for name in ("sheet", "second list"):
        line = next(line for line in text.splitlines() if line.startswith(name + " "))
        confirmed, stored = map(int, re.search(r"(\d+) confirmed, (\d+) stored", line).groups())
        assert confirmed > 0 and stored >= confirmed, line  # deals went through, each stored
        assert "lost 0, duplicated 0, tables out of order 0, not as entered 0, stored unconfirmed 0" in line
    assert re.search(r"entry          p50 / p95 / p99 \d+ ms / \d+ ms / \d+ ms .*target p99 < 200 ms", text)
    assert re.search(r"standings      p50 / p95 / p99 \d+ ms / \d+ ms / \d+ ms .*target p99 < 300 ms", text)
    assert re.search(r"standings \d+ = [\d.]+/s, \d+ of them 304 Not Modified", text)
    assert "5xx            0    target 0" in text and "errors         0" in text
    assert Tournament.objects.count() == 0  # the run used its own database


def test_the_scratch_database_goes_with_the_cache_its_server_kept_beside_it():
    """The load test's server keeps the standings cache in the scratch folder
    (CACHE_DIR, a directory): the cleanup removes it too, and the run's report is not
    lost to an IsADirectoryError at the end."""
    with scratch.scratch_database(log=lambda _line: None) as database:
        path = Path(database.url.removeprefix("sqlite:///"))
        cache = Path(database.cache_dir)
        assert cache.parent == path.parent
        cache.mkdir(exist_ok=True)
        (cache / "entry.djcache").write_bytes(b"standings")
    assert not path.parent.exists()


def test_bench_and_load_test_pages_are_cached_apart_from_the_office(tmp_path):
    """The office's standings cache keys a page by tournament id and results mark: a bench
    tournament with a real one's id must leave nothing there for the office to serve. In
    the scratch block, in-process pages and the load test's server use the scratch cache."""
    from django.conf import settings
    from django.core.cache import cache

    office_cache = settings.CACHES["default"]["LOCATION"]
    cache.set("before", "office")
    with scratch.scratch_database(log=lambda _line: None) as database:
        assert settings.CACHES["default"]["LOCATION"].startswith(database.cache_dir)
        assert cache.get("before") is None  # another cache
        cache.set("bench-page", "from the bench")
        server_env = server.Server(database.url, 1, 1, print, cache_dir=database.cache_dir).env
        assert server_env["CACHE_DIR"] == database.cache_dir
    assert settings.CACHES["default"]["LOCATION"] == office_cache
    assert cache.get("before") == "office" and cache.get("bench-page") is None
    assert not Path(database.cache_dir).exists()


def test_the_load_tests_server_backs_up_into_a_throwaway_folder_not_the_offices(monkeypatch):
    """serve backs up its database every few minutes and keeps the last 24: a load test's
    throwaway database backed up beside the office's own would push the real evening's
    backups out (and a USB stick's too)."""
    import subprocess
    import sys

    from django.conf import settings

    monkeypatch.setenv("SKAT_OFFICE_BACKUP_DIR", "/media/usb-stick")
    with scratch.scratch_database(log=lambda _line: None) as database:
        served = server.Server(database.url, 1, 1, print, cache_dir=database.cache_dir)
        where = subprocess.run(
            [sys.executable, "-c", "import django; django.setup(); from core import backups;"
             "print(backups.primary_dir()); print(backups.second_dir())"],
            cwd=settings.BASE_DIR, env=served.env, capture_output=True, text=True, check=True,
        ).stdout.split()  # fmt: skip
        served.__exit__()
    assert where == [str(Path(served.data_dir) / "backups"), "None"]
    assert Path(settings.DATA_DIR) not in Path(where[0]).parents
    assert not Path(served.data_dir).exists()


def test_the_hall_audit_finds_a_lost_deal_and_one_stored_but_never_confirmed():
    from office.demo import random_game
    from perf.fixtures import entry_data
    from scoring.models import Game

    with scratch.scratch_database(log=lambda _line: None):
        tournament = hall.setup(2, seed=1, log=lambda _line: None)
        series = tournament.series.get(number=2)
        first, second = series.tables.order_by("number")
        rng = random.Random(1)
        games = {}
        for table in (first, second):
            for number in (1, 2, 3):
                games[table.pk, number] = random_game(rng, number, table.size)
                games[table.pk, number].table = table
        intended = {key: {k: v for k, v in entry_data(g).items() if k != "client_id"} for key, g in games.items()}

        def store(table, number):
            games[table.pk, number].save()

        for number in (1, 2):
            store(first, number)
        store(second, 1)
        stats = hall_clients.HallStats()
        stats.confirmed["sheet", first.pk] = [1, 2]
        unconfirmed = hall.audit("sheet", Game, series, stats, intended)
        stats.confirmed["sheet", first.pk] = [1, 2, 3]  # deal 3 confirmed to the phone, never stored
        lost = hall.audit("sheet", Game, series, stats, intended)
        # second's deal 1 is stored, its answer never came: allowed only while pending at the end
        stats.pending.add(("sheet", second.pk, 1))
        pending = hall.audit("sheet", Game, series, stats, intended)
    # second's deal 1: stored, never confirmed, not pending when the run stopped
    assert unconfirmed.unconfirmed_stored == 1 and unconfirmed.lost == 0 and not unconfirmed.ok
    assert lost.lost == 1 and not lost.ok
    assert pending.unconfirmed_stored == 0 and pending.pending == 1 and pending.lost == 1


def test_a_hall_table_plays_a_deal_every_60_to_120_seconds():
    moments = hall_clients.schedule(random.Random(3), 100.0, 10, hall_clients.Pace())
    assert 100.0 <= moments[0] <= 220.0
    gaps = [b - a for a, b in itertools.pairwise(moments)]
    assert len(moments) == 10 and all(60.0 <= gap <= 120.0 for gap in gaps)


def test_the_client_refuses_any_address_but_loopback():
    with pytest.raises(ValueError, match="loopback addresses only"):
        client.run_loop(client.request(1, "GET", "/", host="192.168.1.10"))
    with pytest.raises(ValueError, match="loopback addresses only"):
        server.Server("sqlite://", 1, 1, print, host="10.0.0.1", cache_dir="unused")
    assert ipaddress.ip_address(client.HALL).is_loopback and client.HALL != client.LOOPBACK


def test_each_server_is_started_with_its_own_command_line():
    waitress = server.server_argv("waitress", "127.0.0.2", 8123, 3, 8)
    assert waitress[1:] == ["-m", "perf.serving", "127.0.0.2", "8123", "8", "3"]  # as skat-office serve: 3 processes
    gunicorn = server.server_argv("gunicorn", "127.0.0.2", 8123, 3, 4)
    assert gunicorn[gunicorn.index("--workers") + 1] == "3" and gunicorn[-2:] == ["--backlog", "2048"]
    granian = server.server_argv("granian", "127.0.0.2", 8123, 2, 4)
    assert granian[granian.index("--interface") + 1] == "wsgi" and granian[-1] == "config.wsgi:application"
    assert server.server_argv("hypercorn", "127.0.0.2", 8123, 2, 4)[-1] == "config.wsgi:application"
    with pytest.raises(ValueError, match="unknown server 'uwsgi'"):
        server.server_argv("uwsgi", "127.0.0.2", 8123, 2, 4)


def test_a_link_told_busy_after_waiting_its_turn_is_no_server_error():
    """office.dispatch answers a page that waited 3 s in the queue "busy, again in N s"
    (503 with Retry-After), as config.admission answers a spectator: counted, not a 5xx."""
    from types import SimpleNamespace

    def five_xx(shed: int) -> str:
        stats = hall_clients.HallStats()
        stats.statuses[503] = 5
        stats.busy, stats.shed = 2, shed
        outcome = hall.report(
            SimpleNamespace(description="SQLite file"), "waitress", [], 0, stats, hall.Audit(), hall.Audit(),
            elapsed=1.0, client_cpu=0.0, server_log="", pace=hall_clients.Pace(),
        )  # fmt: skip
        return next(line for line in outcome.lines if line.startswith("5xx"))

    assert five_xx(3).split()[1] == "0"
    assert five_xx(2).split()[1] == "1"
