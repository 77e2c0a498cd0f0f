"""Where the office keeps its data (config.datadir), and the entry points' preparation before Django."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from config import datadir


@pytest.fixture(autouse=True)
def _environment():
    """The entry points set the environment for the settings to come: restored after each test."""
    saved = dict(os.environ)
    yield
    os.environ.clear()
    os.environ.update(saved)


def checkout(tmp_path: Path) -> Path:
    tmp_path.mkdir(parents=True)
    (tmp_path / "manage.py").write_text("")
    return tmp_path


def test_the_named_folder_comes_first_then_the_checkout_then_the_users_data_folder(tmp_path, monkeypatch):
    code = checkout(tmp_path / "code")
    assert datadir.resolve({"SKAT_OFFICE_DATA": str(tmp_path / "evening")}, code) == tmp_path / "evening"
    assert datadir.resolve({"SKAT_OFFICE_DATA": "  "}, code) == code  # `make run`: the data stays where it was
    installed = tmp_path / "site-packages"
    (installed / "config" / "resources").mkdir(parents=True)
    monkeypatch.setattr(datadir, "user_data_dir", lambda: tmp_path / "user-data")
    assert datadir.resolve({}, installed) == tmp_path / "user-data"
    # A wheel's files beside its code; a checkout's in the project folder.
    assert datadir.resource_dir(installed) == installed / "config" / "resources"
    assert datadir.resource_dir(code) == code and datadir.is_checkout(code) and not datadir.is_checkout(installed)


def test_the_users_data_folder_is_the_platforms():
    assert datadir.user_data_dir().name == "skat-office"


def test_a_folder_that_cannot_hold_the_data_is_named_with_what_to_do(tmp_path):
    assert datadir.refusal(tmp_path / "new" / "folder") is None and (tmp_path / "new" / "folder").is_dir()
    (tmp_path / "a-file").write_text("")
    line = datadir.refusal(tmp_path / "a-file" / "data")
    assert line.startswith(f"The data directory {tmp_path / 'a-file' / 'data'} cannot be used: it cannot be created")
    assert "--data-dir DIR (or SKAT_OFFICE_DATA=DIR)" in line and "\n" not in line
    assert datadir.problem(tmp_path / "a-file") == "it is not a folder" or "cannot" in datadir.problem(
        tmp_path / "a-file"
    )


def test_data_dir_is_taken_wherever_it_stands(monkeypatch):
    os.environ.pop("SKAT_OFFICE_DATA", None)
    assert datadir.take_data_dir(["x", "serve", "--data-dir", "/srv/a", "--port", "1"]) == [
        "x",
        "serve",
        "--port",
        "1",
    ]
    assert os.environ["SKAT_OFFICE_DATA"] == "/srv/a"
    assert datadir.take_data_dir(["x", "--data-dir=/srv/b", "migrate"]) == ["x", "migrate"]
    assert os.environ["SKAT_OFFICE_DATA"] == "/srv/b"
    with pytest.raises(SystemExit, match="--data-dir needs a folder"):
        datadir.take_data_dir(["x", "serve", "--data-dir"])
    for forgotten in (["--data-dir="], ["--data-dir", "--port", "8001"]):
        with pytest.raises(SystemExit, match="--data-dir needs a folder"):
            datadir.take_data_dir(["x", "serve", *forgotten])
    assert os.environ["SKAT_OFFICE_DATA"] == "/srv/b"


def test_serve_is_prepared_as_a_production_server_before_the_settings_load(monkeypatch, tmp_path):
    for name in ("SKAT_OFFICE_DATA", "DEBUG", "SECURE", datadir.SERVING_ENV):
        os.environ.pop(name, None)
    assert datadir.prepare(["skat-office", "serve", "--data-dir", str(tmp_path / "d")]) == ["skat-office", "serve"]
    assert (os.environ["DEBUG"], os.environ["SECURE"], os.environ[datadir.SERVING_ENV]) == ("0", "0", "1")
    assert (tmp_path / "d").is_dir()
    os.environ.pop("DEBUG")
    os.environ.pop(datadir.SERVING_ENV)
    datadir.prepare(["manage.py", "migrate"])
    assert "DEBUG" not in os.environ and datadir.SERVING_ENV not in os.environ


def test_a_data_directory_that_cannot_be_written_stops_any_command_with_one_line(monkeypatch, tmp_path, capsys):
    (tmp_path / "a-file").write_text("")
    with pytest.raises(SystemExit) as stopped:
        datadir.prepare(["skat-office", "migrate", "--data-dir", str(tmp_path / "a-file" / "d")])
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cannot be used" in err
