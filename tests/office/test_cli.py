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
