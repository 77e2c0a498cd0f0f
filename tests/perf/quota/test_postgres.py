"""PostgreSQL's backends of the run's database in the run's cgroup (perf.quota.postgres): moved in, and back.

The watcher against trees of plain files standing for the kernel's cgroups (v1's cpu and
cpuacct mounts, v2's unified hierarchy) and for /proc: the pids it finds are written into
the group's ``cgroup.procs``, each goes back to the group its ``/proc/<pid>/cgroup`` named,
and a database it cannot take in is said to be outside the quota. Then against this
machine's PostgreSQL server and cpu controller where both are here: a backend of a scratch
database moves into a real group and back, the postmaster and another database's backend
stay where they were.
"""

from __future__ import annotations

import errno
import io
import os
import re
import time
import uuid
from pathlib import Path

import pytest

from perf.quota import postgres as cpuquota_pg
from perf.quota.cgroups import CpuQuota, QuotaRefused
from perf.quota.postgres import Backends
from tests.perf.quota.test_cgroups import v1_tree, v2_tree

DATABASE = "bench_load_4242"
SERVICE = "system.slice/postgresql.service"


def fake_quota(tmp_path: Path, version: int) -> tuple[CpuQuota, list[Path]]:
    """A quota on a plain-file tree, and the PostgreSQL service's own groups in it (one per hierarchy)."""
    if version == 1:
        root = v1_tree(tmp_path)
        services = [root / SERVICE, tmp_path / "cpuacct" / SERVICE]
    else:
        root = v2_tree(tmp_path)
        services = [root / SERVICE]
    for service in services:
        service.mkdir(parents=True)
        (service / "cgroup.procs").write_text("")
    return CpuQuota(1.0, "loadtest", root=root, cores=2), services


def process(proc: Path, pid: int, title: str, version: int) -> None:
    """A process in the fake /proc: its title, and its groups those of the PostgreSQL service."""
    (proc / str(pid)).mkdir(parents=True)
    (proc / str(pid) / "cmdline").write_bytes(title.encode() + b"\0")
    lines = f"4:cpu:/{SERVICE}\n3:cpuacct:/{SERVICE}\n" if version == 1 else f"0::/{SERVICE}\n"
    (proc / str(pid) / "cgroup").write_text(lines)


def backend(proc: Path, pid: int, version: int, database: str = DATABASE) -> None:
    process(proc, pid, f"postgres: 15/main: postgres {database} 127.0.0.1(51234) idle", version)


def procs(group: Path) -> str:
    path = group / "cgroup.procs"
    return path.read_text() if path.exists() else ""


def wait_until(condition, seconds: float = 10.0) -> bool:
    deadline = time.monotonic() + seconds
    while not condition() and time.monotonic() < deadline:
        time.sleep(0.01)
    return condition()


@pytest.fixture(params=[1, 2], ids=["cgroup-v1", "cgroup-v2"])
def version(request) -> int:
    return request.param


def test_a_backend_found_is_written_into_the_group_and_back_into_its_own_when_the_run_ends(tmp_path, version):
    quota, services = fake_quota(tmp_path, version)
    proc = tmp_path / "proc"
    backend(proc, 5001, version)
    with quota:
        backends = Backends(quota, DATABASE, lambda: {5001}, where="127.0.0.1:5432/x", proc=proc)
        assert backends.look() == 1
        for _root, group in quota.groups():  # v1: the cpu group and its cpuacct twin
            assert procs(group) == "5001"
        assert [procs(service) for service in services] == [""] * len(services)
        assert backends.look() == 0  # found again: not moved again
        backends.stop()
        assert [procs(service) for service in services] == ["5001"] * len(services)
    assert not quota.group.exists()


def test_the_watcher_moves_a_backend_that_connects_while_the_run_goes_on(tmp_path, version):
    quota, _services = fake_quota(tmp_path, version)
    proc = tmp_path / "proc"
    serving: set[int] = set()
    with quota:
        backends = Backends(quota, DATABASE, lambda: set(serving), where="w", proc=proc, poll=0.02).start()
        assert procs(quota.group) == ""
        backend(proc, 5002, version)
        serving.add(5002)
        assert wait_until(lambda: procs(quota.group) == "5002")
        backend(proc, 5003, version)
        serving.add(5003)
        assert wait_until(lambda: procs(quota.group) == "5003")
        assert sorted(backends.moved) == [5002, 5003]
        assert quota.report()[0][1].endswith(" and PostgreSQL's 2 backends of the run's database")


def test_each_backend_goes_back_to_the_group_it_came_from(tmp_path, version):
    quota, services = fake_quota(tmp_path, version)
    proc = tmp_path / "proc"
    backend(proc, 5004, version)
    backend(proc, 5005, version)
    elsewhere = quota.root / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "cgroup.procs").write_text("")
    (proc / "5005" / "cgroup").write_text("4:cpu:/elsewhere\n3:cpuacct:/elsewhere\n0::/elsewhere\n")
    with quota:
        backends = Backends(quota, DATABASE, lambda: {5004, 5005}, where="w", proc=proc)
        backends.look()
        assert backends.moved[5005][quota.root] == elsewhere
        backends.stop()
    assert procs(services[0]) == "5004"
    assert procs(elsewhere) == "5005"


def test_leaving_the_quota_on_ctrl_c_returns_the_backends_before_the_group_is_removed(tmp_path, version):
    quota, services = fake_quota(tmp_path, version)
    proc = tmp_path / "proc"
    backend(proc, 5006, version)
    with pytest.raises(KeyboardInterrupt), quota:
        Backends(quota, DATABASE, lambda: {5006}, where="w", proc=proc, poll=0.02).start()
        raise KeyboardInterrupt
    assert procs(services[0]) == "5006"
    assert not quota.group.exists()


def test_a_backend_that_ended_is_neither_moved_in_nor_back(tmp_path, version):
    quota, services = fake_quota(tmp_path, version)
    proc = tmp_path / "proc"
    backend(proc, 5007, version)
    with quota:
        backends = Backends(quota, DATABASE, lambda: {5007, 5008}, where="w", proc=proc)  # 5008 is gone
        assert backends.look() == 1
        (proc / "5007" / "cmdline").unlink()  # ended: its pid may be somebody else's by now
        backends.stop()
        assert backends.outside is None
    assert procs(services[0]) == ""


def test_a_pid_that_is_no_backend_of_the_database_here_keeps_the_database_outside(tmp_path, version):
    # pg_stat_activity's pids are the server's: in a container they name other processes here.
    quota, _services = fake_quota(tmp_path, version)
    proc = tmp_path / "proc"
    backend(proc, 5009, version)
    process(proc, 5010, "/usr/bin/python3 -m http.server", version)
    with quota:
        backends = Backends(quota, DATABASE, lambda: {5009, 5010}, where="127.0.0.1:5432/x", proc=proc)
        assert backends.look() == 0
        assert procs(quota.group) in ("", "5009")  # 5009 went in, then back out
        assert procs(quota.root / SERVICE) == "5009"
        assert backends.moved == {}
        assert quota.report()[0][1].endswith(
            "; the database outside it (127.0.0.1:5432/x: its backend 5010 is not a process here "
            "(another pid namespace: a container?))"
        )


def test_another_databases_backend_is_left_alone(tmp_path, version):
    quota, services = fake_quota(tmp_path, version)
    proc = tmp_path / "proc"
    backend(proc, 5011, version, database="bench_load_4242")  # a name that starts with ours is not ours
    backend(proc, 5012, version, database="bench_load_42")
    with quota:
        backends = Backends(quota, "bench_load_42", lambda: {5012}, where="w", proc=proc)
        assert not backends.is_backend(5011)
        assert backends.look() == 1
        assert list(backends.moved) == [5012]
        backends.stop()
    assert procs(services[0]) == "5012"


def test_a_backend_the_kernel_will_not_move_keeps_the_database_outside_and_the_run_goes_on(
    tmp_path, version, monkeypatch
):
    quota, _services = fake_quota(tmp_path, version)
    proc = tmp_path / "proc"
    backend(proc, 5013, version)

    def refused(_files, *_pids):
        raise PermissionError(errno.EACCES, "Permission denied")

    with quota:
        monkeypatch.setattr(cpuquota_pg, "join", refused)
        backends = Backends(quota, DATABASE, lambda: {5013}, where="127.0.0.1:5432/x", proc=proc).start()
        assert backends.outside == "its backend 5013 cannot be moved: Permission denied"
        assert backends._thread is None  # no watcher left looking
        assert "; the database outside it (127.0.0.1:5432/x: its backend 5013 cannot be moved" in quota.report()[0][1]


def test_a_server_on_another_machine_is_outside_the_quota_without_a_connection(tmp_path):
    quota, _services = fake_quota(tmp_path, 1)
    with quota:
        backends = cpuquota_pg.watch(quota, "postgres://postgres@192.0.2.7:5432/bench_load_4242")
        assert backends.find() == set()
        assert quota.report()[0][1] == (
            "CPU quota 1.0 of 2 cores (cgroup v1 cpu.cfs_quota_us); the database outside it "
            "(192.0.2.7:5432/bench_load_4242: the PostgreSQL server is not on this machine)"
        )


def test_without_a_quota_or_on_sqlite_there_is_nothing_to_watch(tmp_path):
    quota, _services = fake_quota(tmp_path, 1)
    assert cpuquota_pg.watch(None, "postgres://postgres@127.0.0.1:5432/x") is None
    assert cpuquota_pg.watch(quota, f"sqlite:///{tmp_path}/bench.sqlite3") is None


@pytest.mark.parametrize(
    ("host", "here"),
    [
        ("", True),
        (None, True),
        ("/var/run/postgresql", True),
        ("localhost", True),
        ("127.0.0.1", True),
        ("127.0.1.1", True),
        ("::1", True),
        ("10.0.0.5", False),
        ("db.example.org", False),
    ],
)
def test_a_socket_or_a_loopback_address_is_a_server_on_this_machine(host, here):
    assert cpuquota_pg.on_this_machine(host) is here


# This machine's PostgreSQL server and cpu controller.


def server_url() -> str:
    """The PostgreSQL server the suite was given (DATABASE_URL), else this machine's usual one, or a skip."""
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith(("postgres://", "postgresql://")):
        url = "postgres://postgres@127.0.0.1:5432/postgres"
    return url.rsplit("/", 1)[0]


def connect(base: str, database: str):
    import dj_database_url
    import psycopg

    settings = dj_database_url.parse(f"{base}/{database}")
    return psycopg.connect(
        dbname=database,
        user=settings.get("USER") or None,
        password=settings.get("PASSWORD") or None,
        host=settings.get("HOST") or None,
        port=settings.get("PORT") or None,
        autocommit=True,
        connect_timeout=3,
    )


@pytest.fixture
def scratch_database():
    """(server URL without a database, a database of its own on it), dropped after; skipped where none is."""
    import psycopg

    base = server_url()
    name = f"cpuquota_pg_{uuid.uuid4().hex[:8]}"
    try:
        admin = connect(base, "postgres")
    except psycopg.Error as error:
        pytest.skip(f"no PostgreSQL server reachable at {base} (DATABASE_URL or 127.0.0.1:5432): {error}")
    with admin:
        admin.execute(f'CREATE DATABASE "{name}"')
        try:
            yield base, name
        finally:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def real_quota() -> CpuQuota:
    try:
        return CpuQuota(1.0, "test")
    except QuotaRefused as refused:
        pytest.skip(f"no writable cpu controller here: {refused}")


def backend_pid(connection) -> int:
    return connection.execute("SELECT pg_backend_pid()").fetchone()[0]


def cgroups(pid: int) -> str:
    return Path(f"/proc/{pid}/cgroup").read_text()


def parent(pid: int) -> int:
    return int(Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[1])


def test_a_real_backend_of_the_runs_database_moves_in_and_back_and_the_others_stay(scratch_database):
    base, name = scratch_database
    quota = real_quota()
    with connect(base, name) as ours, connect(base, "postgres") as theirs:
        pid, other = backend_pid(ours), backend_pid(theirs)
        if not Path(f"/proc/{pid}").exists():
            pytest.skip(f"the server's processes are not visible here (backend {pid} not in /proc)")
        postmaster = parent(pid)
        before = {p: cgroups(p) for p in (pid, other, postmaster)}
        with quota:
            backends = cpuquota_pg.watch(quota, f"{base}/{name}")
            assert backends.outside is None
            assert pid in quota.pids()
            assert not {other, postmaster} & quota.pids()
            with connect(base, name) as later:  # the office's next connection: the watcher finds it
                assert wait_until(lambda: backend_pid(later) in quota.pids())
            assert quota.report()[0][1].endswith(" and PostgreSQL's 2 backends of the run's database")
            backends.stop()
            assert pid not in quota.pids()
            assert cgroups(pid) == before[pid]
        assert {p: cgroups(p) for p in (pid, other, postmaster)} == before
        assert not quota.group.exists()
        assert ours.execute("SELECT 1").fetchone() == (1,)  # the backend serves on


def test_the_bench_connections_own_backend_is_timed_in_the_group_and_comes_back_with_it(
    scratch_database, django_db_blocker
):
    import dj_database_url
    from django.db import connections
    from django.db.backends.postgresql.base import DatabaseWrapper

    base, name = scratch_database
    quota = real_quota()
    settings = connections.configure_settings({"default": dj_database_url.parse(f"{base}/{name}")})["default"]
    connection = DatabaseWrapper(settings, alias="cpuquota")
    with django_db_blocker.unblock():
        bench_connection_round_trip(quota, connection)


def bench_connection_round_trip(quota: CpuQuota, connection) -> None:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_backend_pid()")
            pid = cursor.fetchone()[0]
        if not Path(f"/proc/{pid}").exists():
            pytest.skip(f"the server's processes are not visible here (backend {pid} not in /proc)")
        before = cgroups(pid)
        with quota:
            quota.enter()
            backends = cpuquota_pg.join_connection(quota, connection)
            assert {os.getpid(), pid} <= quota.pids()
            quota.leave()
            assert backends.words() == " and PostgreSQL's 1 backend of the run's database"
            assert not {os.getpid(), pid} & quota.pids()
        assert cgroups(pid) == before
    finally:
        connection.close()


@pytest.mark.slow  # a server, its database and a short load test: about 50 s on a shared machine
@pytest.mark.django_db
@pytest.mark.usefixtures("scratch_template")
def test_a_short_load_test_on_this_machines_postgresql_has_its_backends_in_the_quota_line():
    import psycopg
    from django.core.management import CommandError, call_command

    base = server_url()
    try:
        connect(base, "postgres").close()
    except psycopg.Error as error:
        pytest.skip(f"no PostgreSQL server reachable at {base} (DATABASE_URL or 127.0.0.1:5432): {error}")
    root = real_quota().root
    out = io.StringIO()
    try:
        call_command(
            "loadtest",
            *("--clients", "4", "--rounds", "1", "--think", "0.2", "--workers", "2"),
            *("--database", f"{base}/", "--cpu-quota", "1.0"),
            stdout=out,
        )
    except CommandError as error:
        # Only the latency target may miss: the server and its database share one CPU on a shared machine.
        assert re.fullmatch(r"load test failed: p99 \d+ ms >= 200 ms", str(error)), str(error)
    text = out.getvalue()
    line = re.search(r"\ncpu quota +CPU quota 1\.0 .*\n", text)
    assert line, text
    if "the database outside it" in line.group():
        pytest.skip(f"this machine's PostgreSQL cannot join the quota: {line.group().strip()}")
    moved = re.search(r"processes in it and PostgreSQL's (\d+) backends? of the run's database\n", line.group())
    assert moved, line.group()
    assert int(moved.group(1)) >= 1
    assert "lost 0, duplicated 0, not as entered 0, never confirmed 0" in text
    assert not [p for p in root.iterdir() if p.name == f"skat-office-loadtest-{os.getpid()}"]
