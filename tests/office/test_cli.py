"""``skat-office``, the installed office's one command: serve by default, any management command by name."""

from __future__ import annotations

import os

import pytest

from office import cli


@pytest.fixture(autouse=True)
def _environment():
    """The entry points set the environment for the settings to come: restored after each test."""
    saved = dict(os.environ)
    yield
    os.environ.clear()
    os.environ.update(saved)


def test_no_command_serves_and_options_alone_are_serves():
    assert cli.command_line([]) == ["skat-office", "serve"]
    assert cli.command_line(["--port", "8001", "--data-dir", "D"]) == [
        "skat-office",
        "serve",
        "--port",
        "8001",
        "--data-dir",
        "D",
    ]
    assert cli.command_line(["serve", "--no-demo"]) == ["skat-office", "serve", "--no-demo"]
    assert cli.command_line(["migrate", "--plan"]) == ["skat-office", "migrate", "--plan"]
    assert cli.command_line(["--version"]) == ["skat-office", "--version"]
    assert cli.command_line(["-h"]) == ["skat-office", "--help"]
    # --data-dir may stand before the command too.
    assert cli.command_line(["--data-dir", "D", "migrate"]) == ["skat-office", "migrate", "--data-dir", "D"]
    assert cli.command_line(["--data-dir=D", "--port", "1"]) == ["skat-office", "serve", "--port", "1", "--data-dir=D"]


def test_help_and_version(capsys, monkeypatch):
    cli.main(["--help"])
    assert "skat-office [serve] [--bind HOST] [--port PORT] [--data-dir DIR]" in capsys.readouterr().out
    cli.main(["--version"])
    assert capsys.readouterr().out.startswith("skat-office ")


def test_a_management_command_runs_with_the_data_directory(monkeypatch, tmp_path):
    ran = {}
    monkeypatch.setattr("django.core.management.execute_from_command_line", lambda argv: ran.setdefault("argv", argv))
    os.environ.pop("SKAT_OFFICE_DATA", None)
    cli.main(["showmigrations", "--data-dir", str(tmp_path / "evening")])
    assert ran["argv"] == ["skat-office", "showmigrations"]
    assert (tmp_path / "evening").is_dir()


def test_an_unusable_data_directory_stops_before_django(tmp_path, monkeypatch):
    os.environ.pop("SKAT_OFFICE_DATA", None)
    (tmp_path / "a-file").write_text("")
    with pytest.raises(SystemExit) as stopped:
        cli.main(["serve", "--data-dir", str(tmp_path / "a-file" / "d")])
    assert stopped.value.code == 2


@pytest.mark.django_db  # the test database made first: scratch_template copies it, migrated
def test_a_lost_director_password_is_set_anew_with_changepassword(scratch_template, tmp_path):
    """The generated password is printed once, in the first container's log; recreating the
    container loses that log. ``docker compose exec office skat-office changepassword
    director`` sets a new one: the same command here, run as the image runs it (the
    installed command's module, DEBUG off, the data folder's key), without a terminal."""
    import shutil
    import subprocess
    import sys

    if scratch_template is None:
        pytest.skip("a migrated SQLite file is copied in; the command's path is the same on PostgreSQL")
    data = tmp_path / "data"
    data.mkdir()
    shutil.copyfile(scratch_template, data / "db.sqlite3")
    (data / "db.sqlite3.secret-key").write_text("container-key-" + "k3y" * 20 + "\n")
    env = {k: v for k, v in os.environ.items() if k not in {"SECRET_KEY", "SECRET_KEY_FILE", "CACHE_DIR"}}
    env |= {"SKAT_OFFICE_DATA": str(data), "DATABASE_URL": "", "DEBUG": "0", "SECURE": "1"}

    def office(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
        # A session of its own: no controlling terminal, so getpass reads the standard input.
        return subprocess.run(
            [sys.executable, "-m", "office.cli", *args],
            cwd=tmp_path,
            env=env,
            input=stdin,
            capture_output=True,
            text=True,
            timeout=120,
            start_new_session=True,
        )

    first = office("shell", "-c", "from office.director import ensure_director; print(ensure_director().password)")
    assert first.returncode == 0, first.stderr
    lost = first.stdout.split()[-1]
    changed = office("changepassword", "director", stdin="Kreuz-Bube 18 Pik\nKreuz-Bube 18 Pik\n")
    assert changed.returncode == 0, changed.stderr
    assert "Password changed successfully for user 'director'" in changed.stdout
    check = "from django.contrib.auth import authenticate as a; print(bool(a(username='director', password='{}')))"
    assert office("shell", "-c", check.format("Kreuz-Bube 18 Pik")).stdout.split()[-1] == "True"
    assert office("shell", "-c", check.format(lost)).stdout.split()[-1] == "False"
