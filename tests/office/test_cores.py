"""The cores the office may use (office.cores): a container's CPU limit counts, read from fake cgroup files."""

from __future__ import annotations

from pathlib import Path

import pytest

from office import cores, workers


@pytest.fixture
def machine(monkeypatch):
    """A machine of eight cores this process may run on, unless a test says fewer."""
    monkeypatch.setattr(cores.os, "sched_getaffinity", lambda pid: set(range(8)), raising=False)
    monkeypatch.setattr(cores.os, "cpu_count", lambda: 8)


def v2(root: Path, cpu_max: str | None, group: str = "") -> Path:
    """A cgroup v2 mount with ``cpu.max`` in ``group``'s folder; the /proc/self/cgroup naming it."""
    (root / "cgroup.controllers").parent.mkdir(parents=True, exist_ok=True)
    (root / "cgroup.controllers").write_text("cpuset cpu io memory pids\n")
    folder = root / group
    folder.mkdir(parents=True, exist_ok=True)
    if cpu_max is not None:
        (folder / "cpu.max").write_text(cpu_max + "\n")
    proc = root.parent / "proc-cgroup"
    proc.write_text(f"0::/{group}\n")
    return proc


def v1(root: Path, quota_us: str, period_us: str = "100000", folder: str = "cpu,cpuacct", group: str = "/") -> Path:
    mount = root / folder
    mount.mkdir(parents=True)
    (mount / "cpu.cfs_quota_us").write_text(quota_us + "\n")
    (mount / "cpu.cfs_period_us").write_text(period_us + "\n")
    proc = root.parent / "proc-cgroup"
    proc.write_text(f"12:memory:/docker/abc\n4:cpu,cpuacct:{group}\n0::/\n")
    return proc


@pytest.mark.parametrize(
    ("cpu_max", "expected"),
    [
        ("200000 100000", 2),  # docker run --cpus 2
        ("150000 100000", 2),  # a part of a core counts as a whole one
        ("50000 100000", 1),  # at least one
        ("100001 100000", 1),  # a quota and period that do not divide evenly: one
        ("1600000 100000", 8),  # a quota above the affinity: the affinity
        ("max 100000", 8),  # no limit
        ("", 8),  # an empty file
        ("lots 100000", 8),  # unreadable: no limit
    ],
)
def test_cgroup_v2_cpu_max_caps_the_cores(machine, tmp_path, cpu_max, expected):
    root = tmp_path / "cgroup"
    proc = v2(root, cpu_max)
    assert cores.usable(root, proc) == expected


def test_the_smallest_limit_along_the_group_and_its_parents_counts(machine, tmp_path):
    """On a host, the group's own folder may say "max" while a parent slice is limited to 3 cores."""
    root = tmp_path / "cgroup"
    proc = v2(root, "max 100000", group="system.slice/skat.service")
    (root / "system.slice" / "cpu.max").write_text("300000 100000\n")
    assert cores.quota(root, proc) == 3.0
    assert cores.usable(root, proc) == 3


@pytest.mark.parametrize(
    ("quota_us", "period_us", "expected"),
    [("200000", "100000", 2), ("250000", "100000", 3), ("-1", "100000", 8), ("50000", "0", 8)],
)
def test_cgroup_v1_quota_over_period_caps_the_cores(machine, tmp_path, quota_us, period_us, expected):
    root = tmp_path / "cgroup"
    proc = v1(root, quota_us, period_us)
    assert cores.usable(root, proc) == expected


def test_a_v1_group_named_as_the_host_sees_it_is_read_at_the_containers_root(machine, tmp_path):
    """Docker on cgroup v1 without a namespace: /proc/self/cgroup says /docker/ID, mounted as the root."""
    root = tmp_path / "cgroup"
    proc = v1(root, "100000", folder="cpu", group="/docker/0123abcd")
    assert cores.usable(root, proc) == 1


def test_no_control_groups_leave_the_affinity(machine, tmp_path):
    assert cores.quota(tmp_path / "none", tmp_path / "no-proc") is None
    assert cores.usable(tmp_path / "none", tmp_path / "no-proc") == 8


def test_the_affinity_counts_not_the_machines_cores(monkeypatch, tmp_path):
    """``taskset -c 0,1`` or ``--cpuset-cpus 0-1`` on a machine of 8 cores: 2."""
    monkeypatch.setattr(cores.os, "sched_getaffinity", lambda pid: {0, 1}, raising=False)
    monkeypatch.setattr(cores.os, "cpu_count", lambda: 8)
    assert cores.usable(tmp_path / "none", tmp_path / "no-proc") == 2


def test_serve_starts_a_process_per_usable_core(monkeypatch):
    """``skat-office serve``'s default: one process per core the limit leaves, at most four."""
    for usable, processes in [(1, 1), (2, 2), (3, 3), (16, 4)]:
        monkeypatch.setattr(cores, "usable", lambda usable=usable: usable)
        assert workers.default_processes() == processes


def test_on_this_machine_the_count_is_a_positive_number_no_larger_than_the_machines():
    assert 1 <= cores.usable() <= (cores.os.cpu_count() or 1)
