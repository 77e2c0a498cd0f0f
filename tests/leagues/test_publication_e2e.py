"""End to end on loopback: a hall laptop's office (this test's SQLite database) publishes a
played match day to a league server (gunicorn on 127.0.0.1 with a scratch PostgreSQL
database), twice; the server stores one result. Then the server refuses a wrong token.

Needs the PostgreSQL server at 127.0.0.1:5432 (user postgres, trust); skipped without it.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection

from tests import factories

from .helpers import played_day

pytestmark = [pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[2]
PG = "postgres://postgres@127.0.0.1:5432/"

SERVER_SETUP = """
import datetime
from leagues.lineups import create_match_day
from leagues.publication import new_host
from tests import factories
league, group, teams = factories.league_group(name="Verbandsliga", series_per_matchday=2, rounds_per_series=1)
host, token = new_host(league, "SC Herz Dame")
day = create_match_day(group, number=1, date=datetime.date(2026, 9, 5), teams=teams, host=host)
print("SETUP", day.pk, token)
"""

SERVER_COUNTS = """
import json
from leagues.models import MatchDay, Publication
from games.models import Game
day = MatchDay.objects.get()
print("COUNTS", json.dumps({
    "publications": Publication.objects.count(),
    "tournament": day.tournament_id,
    "games": Game.objects.filter(table__series__tournament=day.tournament_id).count(),
    "scores": sorted(Game.objects.filter(table__series__tournament=day.tournament_id).values_list("score", flat=True)),
}))
"""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture
def league_server(tmp_path):
    if connection.vendor != "sqlite":
        pytest.skip("the hall laptop's office is the SQLite one")
    if not shutil.which("createdb"):
        pytest.skip("PostgreSQL's client tools (createdb) are not installed: the league server needs a database")
    name = f"league_e2e_{os.getpid()}"
    created = subprocess.run(["createdb", "-h", "127.0.0.1", "-U", "postgres", name], capture_output=True)
    if created.returncode != 0:
        pytest.skip(f"no PostgreSQL at 127.0.0.1:5432: {created.stderr.decode(errors='replace')}")
    env = os.environ | {
        "DATABASE_URL": PG + name,
        "DEBUG": "0",
        "SECURE": "0",
        "ALLOWED_HOSTS": "127.0.0.1",
        "SECRET_KEY": "league-server-test-" + "x" * 40,
        "DJANGO_SETTINGS_MODULE": "config.settings",
    }
    manage = [sys.executable, str(ROOT / "manage.py")]
    server = None
    try:
        subprocess.run([*manage, "migrate", "-v", "0"], env=env, check=True, cwd=ROOT)
        out = subprocess.run(
            [*manage, "shell", "-c", SERVER_SETUP], env=env, check=True, cwd=ROOT, capture_output=True
        )
        match_day, token = out.stdout.decode().split("SETUP", 1)[1].split()
        # The test opens the listening socket and hands it to gunicorn (fd://): it accepts
        # connections from now on, and the first request waits in its queue until a worker
        # takes it. No polling for the server to come up.
        listener = socket.socket()
        listener.bind(("127.0.0.1", 0))
        listener.listen(64)
        port = listener.getsockname()[1]
        log = (tmp_path / "server.log").open("wb")
        server = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "gunicorn",
                "config.wsgi:application",
                "--bind",
                f"fd://{listener.fileno()}",
                "--workers",
                "2",
            ],
            env=env,
            cwd=ROOT,
            stdout=log,
            stderr=subprocess.STDOUT,
            pass_fds=(listener.fileno(),),
        )
        listener.close()  # gunicorn holds it now

        def counts() -> dict:
            out = subprocess.run(
                [*manage, "shell", "-c", SERVER_COUNTS], env=env, check=True, cwd=ROOT, capture_output=True
            )
            return json.loads(out.stdout.decode().split("COUNTS", 1)[1])

        yield f"http://127.0.0.1:{port}/league/api/publish/", int(match_day), token, counts
    finally:
        if server is not None:
            server.terminate()
            server.wait(timeout=30)
            print((tmp_path / "server.log").read_text(errors="replace")[-6000:])  # shown when the test fails
        subprocess.run(["dropdb", "-h", "127.0.0.1", "-U", "postgres", "--if-exists", name], check=False)


def test_a_hall_publishes_a_match_day_twice_and_the_server_stores_one_result(league_server, capsys):
    url, match_day, token, counts = league_server
    _league, group, teams = factories.league_group(series_per_matchday=2, rounds_per_series=1)
    hall = played_day(group, teams, 1, ["Team A", "Team C"], substitute=True).tournament
    assert counts()["publications"] == 0

    call_command("publish_tournament", str(hall.pk), url, "--matchday", str(match_day), f"--token={token}")
    first = json.loads(capsys.readouterr().out)
    assert first["stored"] is True and first["match_day"] == match_day
    after_first = counts()

    call_command("publish_tournament", str(hall.pk), url, "--matchday", str(match_day), f"--token={token}")
    second = json.loads(capsys.readouterr().out)
    assert second["stored"] is False and second["tournament"] == first["tournament"]
    after_second = counts()
    assert after_second == after_first
    assert after_second["publications"] == 1 and after_second["tournament"] == first["tournament"]
    played = sorted(s for s in hall.series.values_list("tables__games__score", flat=True) if s is not None)
    assert after_second["games"] == len(played) and after_second["scores"] == played

    with pytest.raises(CommandError, match="refused \\(401\\): Authorization: the token is unknown") as refused:
        call_command("publish_tournament", str(hall.pk), url, "--token", "not-the-token")
    assert refused.value.returncode == 1


def test_without_a_connection_the_hall_is_told_to_send_again(capsys):
    _league, group, teams = factories.league_group(series_per_matchday=1, rounds_per_series=1)
    hall = played_day(group, teams, 1, ["Team A"]).tournament
    closed = f"http://127.0.0.1:{free_port()}/league/api/publish/"
    with pytest.raises(CommandError, match=r"no connection to .* send again when the hall is online") as offline:
        call_command("publish_tournament", str(hall.pk), closed, "--token", "t")
    assert offline.value.returncode == 3
