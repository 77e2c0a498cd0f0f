"""End to end on loopback: a hall laptop's office (this test's SQLite database) publishes a
played match day to a league server (gunicorn on 127.0.0.1 with a scratch PostgreSQL
database), twice; the server stores one result. Then the server refuses a wrong token.

Needs the PostgreSQL server at 127.0.0.1:5432 (user postgres, trust); skipped without it.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import socket
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
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
# For the hall that imports its package: match day 3 of the same teams on the same day (only
# its key tells the two apart) and the manager who may import it there.
third = create_match_day(group, number=3, date=datetime.date(2026, 9, 5), teams=teams, host=host)
print("SETUP", day.pk, token, third.pk, third.key)
"""

SERVER_COUNTS = """
import json
from leagues.models import MatchDay, Publication
from scoring.models import Game
day = MatchDay.objects.get(pk=int(PK))
print("COUNTS", json.dumps({
    "publications": Publication.objects.filter(match_day=day).count(),
    "substitutions": day.substitutions.count(),
    "tournament": day.tournament_id,
    "games": Game.objects.filter(table__series__tournament=day.tournament_id).count(),
    "scores": sorted(Game.objects.filter(table__series__tournament=day.tournament_id).values_list("score", flat=True)),
}))
"""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextlib.contextmanager
def running_server(tmp_path, setup: str):
    """A league server (gunicorn on loopback, a scratch PostgreSQL database) set up by the
    ``setup`` script (run by ``manage.py shell``): yields its base URL, what the script
    printed and ``shell(script) -> str`` to look into its database. Skips without PostgreSQL."""
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

    def shell(script: str) -> str:
        return subprocess.run(
            [*manage, "shell", "-c", script], env=env, check=True, cwd=ROOT, capture_output=True
        ).stdout.decode()

    try:
        subprocess.run([*manage, "migrate", "-v", "0"], env=env, check=True, cwd=ROOT)
        printed = shell(setup)
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
        yield f"http://127.0.0.1:{port}", printed, shell
    finally:
        if server is not None:
            server.terminate()
            server.wait(timeout=30)
            print((tmp_path / "server.log").read_text(errors="replace")[-6000:])  # shown when the test fails
        subprocess.run(["dropdb", "-h", "127.0.0.1", "-U", "postgres", "--if-exists", name], check=False)


@dataclass
class Server:
    base: str
    token: str
    #: Match day 1's id, and match day 3's id and key (the same teams on the same day).
    first: int
    third: int
    third_key: str
    shell: Callable[[str], str]

    def counts(self, match_day: int) -> dict:
        return json.loads(self.shell(SERVER_COUNTS.replace("PK", str(match_day))).split("COUNTS", 1)[1])


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """One league server for the module's tests (each publishes to its own match day)."""
    with running_server(tmp_path_factory.mktemp("server"), SERVER_SETUP) as (base, printed, shell):
        first, token, third, key = printed.split("SETUP", 1)[1].split()
        yield Server(base, token, int(first), int(third), key, shell)


@pytest.fixture
def league_server(server):
    yield f"{server.base}/league/api/publish/", server.first, server.token, lambda: server.counts(server.first)


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


def test_a_hall_imports_its_match_day_plays_it_and_publishes_it_without_naming_it(server, capsys, settings):
    """Nothing retyped on the hall, no --matchday guessed. Match days 1 and 3
    have the same teams on the same day, so only the key the hall kept names match day 3."""
    from draw.series import draw_series
    from leagues import lineups
    from leagues.models import MatchDay

    hall_director = factories.user("halle", superuser=True)
    settings.SKAT_LEAGUE_SERVERS = [server.base]  # the hall's operator allows its league server
    package_url = f"{server.base}/league/api/package/"
    call_command("import_matchday", package_url, "--user", "halle", f"--token={server.token}")
    assert "League Verbandsliga 2026 set up." in capsys.readouterr().out
    call_command("import_matchday", package_url, "--user", "halle", f"--token={server.token}")
    assert "nothing changed" in capsys.readouterr().out

    day = MatchDay.objects.select_related("tournament").get(key=server.third_key)
    assert day.tournament.is_director(hall_director) and day.host.name == "SC Herz Dame"
    teams = list(day.teams.order_by("name"))
    for team in teams:
        lineups.set_line_up(day, team, [e.player for e in team.roster.filter(position__lte=4)])
    factories.play_series(draw_series(day.tournament), "Team A")
    team_a = teams[0].roster
    lineups.substitute(day, teams[0], team_a.get(position=1).player, team_a.get(position=5).player)
    factories.play_series(draw_series(day.tournament), "Team C")

    publish_url = f"{server.base}/league/api/publish/"
    call_command("publish_tournament", str(day.tournament_id), publish_url, f"--token={server.token}")
    answer = json.loads(capsys.readouterr().out)
    assert answer["stored"] is True and answer["match_day"] == server.third, answer
    stored = server.counts(server.third)
    played = sorted(s for s in day.tournament.series.values_list("tables__games__score", flat=True) if s is not None)
    assert stored["publications"] == 1 and stored["scores"] == played and stored["substitutions"] == 1
