"""The load test's server (perf.server.Server) leaves no throwaway folder behind, whether
it served, failed to start or was never started."""

from __future__ import annotations

import gc
import subprocess
import sys
from pathlib import Path

import pytest

from perf import server


def made() -> server.Server:
    return server.Server("sqlite://", 1, 1, lambda _line: None, cache_dir="unused")


def test_a_server_that_stops_at_once_leaves_no_folder_nor_log(monkeypatch):
    monkeypatch.setattr(server.subprocess, "run", lambda *args, **kwargs: None)  # static files collected
    served = made()
    served.command = [sys.executable, "-c", "print('no database'); raise SystemExit(3)"]
    with pytest.raises(RuntimeError, match="no database"), served:  # the server's own words
        pass
    assert not Path(served.data_dir).exists() and not Path(served.logfile.name).exists()


def test_a_failed_collectstatic_leaves_no_folder_nor_log(monkeypatch):
    def fails(*args, **kwargs):
        raise subprocess.CalledProcessError(1, args[0])

    monkeypatch.setattr(server.subprocess, "run", fails)
    served = made()
    with pytest.raises(subprocess.CalledProcessError), served:
        pass
    assert not Path(served.data_dir).exists() and not Path(served.logfile.name).exists()


def test_a_server_never_started_leaves_no_folder():
    """perf.seats makes its Server before setting up the tournament (which may fail), and
    a test may only read its environment."""
    never = made()
    folder, log = never.data_dir, never.logfile.name
    del never
    gc.collect()
    assert not Path(folder).exists() and not Path(log).exists()


def test_its_static_files_go_where_the_environment_says_not_into_the_checkouts(monkeypatch, tmp_path):
    """A test run's servers collect into the run's own folder (tests/conftest.py): the
    checkout's staticfiles/, rewritten under another worker reading it, failed its tests."""
    monkeypatch.setenv("STATIC_ROOT", str(tmp_path))
    assert made().env["STATIC_ROOT"] == str(tmp_path)


def test_it_starts_where_there_is_no_manage_py_as_in_an_installed_office(monkeypatch, tmp_path):
    """``skat-office loadtest`` in an installed office (the container): BASE_DIR is the
    site-packages folder, which has no manage.py. The static files are collected and the
    office served through the installed modules, from a folder without one."""
    import json
    import urllib.request

    from django.conf import settings

    site = tmp_path / "site-packages"
    site.mkdir()
    monkeypatch.setattr(settings, "BASE_DIR", site)
    monkeypatch.setenv("STATIC_ROOT", str(tmp_path / "static"))
    # The container's own database password: not for the scratch database, whose URL is whole.
    (tmp_path / "db-password").write_text("the office's own\n")
    monkeypatch.setenv("DATABASE_PASSWORD_FILE", str(tmp_path / "db-password"))
    served = server.Server(
        f"sqlite:///{tmp_path / 'scratch.sqlite3'}", 1, 2, lambda _line: None, cache_dir=str(tmp_path / "cache")
    )
    with served, urllib.request.urlopen(f"http://{served.host}:{served.port}/healthz", timeout=10) as answer:
        assert answer.status == 200 and json.load(answer)["status"] == "ok"
    assert (tmp_path / "static" / "staticfiles.json").is_file()  # collected, hashed names (DEBUG off)
    assert not (site / "manage.py").exists()
