"""A cgroup limited to Q CPUs (perf.quota.cgroups): made, joined, measured and removed, or refused in one line.

Against trees of plain files standing for the kernel's (cgroup v1's cpu and cpuacct
mounts, v2's unified hierarchy) in tmp_path, and against this machine's own cpu
controller where it is writable: there a busy child in a group of 0.2 CPU gets about
0.2 CPU, and a process tree started through the group is in it whole.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from perf.quota import cgroups as cpuquota
from perf.quota.cgroups import CpuQuota, QuotaRefused

BUSY = "import time\nend = time.monotonic() + {seconds}\nwhile time.monotonic() < end: pass"


def v1_tree(tmp_path: Path, *, cpuacct: bool = True) -> Path:
    """cgroup v1's cpu mount (and cpuacct's beside it) as the kernel shows them at the root."""
    root = tmp_path / "cpu"
    root.mkdir()
    for name, text in {"cgroup.procs": "1\n", "cpu.cfs_period_us": "100000\n", "cpu.cfs_quota_us": "-1\n"}.items():
        (root / name).write_text(text)
    if cpuacct:
        (tmp_path / "cpuacct").mkdir()
        (tmp_path / "cpuacct" / "cgroup.procs").write_text("1\n")
        (tmp_path / "cpuacct" / "cpuacct.usage").write_text("123456789\n")
    return root


def v2_tree(tmp_path: Path, subtree: str = "") -> Path:
    """The unified hierarchy's root with the cpu controller available, ``subtree`` enabled below it."""
    root = tmp_path / "unified"
    root.mkdir()
    (root / "cgroup.procs").write_text("1\n")
    (root / "cgroup.controllers").write_text("cpuset cpu io memory pids\n")
    (root / "cgroup.subtree_control").write_text(subtree)
    return root


def refusal(cpus: float, root: Path, cores: int = 2) -> str:
    with pytest.raises(QuotaRefused) as refused:
        CpuQuota(cpus, "test", root=root, cores=cores)
    return str(refused.value)


def test_a_v1_group_has_the_quota_as_q_periods_and_is_gone_after_the_run(tmp_path):
    root = v1_tree(tmp_path)
    with CpuQuota(0.5, "loadtest", root=root, cores=2) as quota:
        group = root / f"skat-office-loadtest-{os.getpid()}"
        assert quota.group == group
        assert (group / "cpu.cfs_period_us").read_text() == "100000"
        assert (group / "cpu.cfs_quota_us").read_text() == "50000"
        assert (tmp_path / "cpuacct" / group.name).is_dir()  # its twin counts the CPU used
        assert quota.describe() == "CPU quota 0.5 of 2 cores (cgroup v1 cpu.cfs_quota_us)"
    assert not group.exists()
    assert not (tmp_path / "cpuacct" / group.name).exists()


def test_a_v2_group_enables_cpu_below_the_root_and_writes_cpu_max(tmp_path):
    root = v2_tree(tmp_path)
    with CpuQuota(1.0, "bench", root=root, cores=4) as quota:
        assert (root / "cgroup.subtree_control").read_text() == "+cpu"
        assert (quota.group / "cpu.max").read_text() == "100000 100000"
        assert quota.describe() == "CPU quota 1.0 of 4 cores (cgroup v2 cpu.max)"
    assert not quota.group.exists()


def test_cpu_already_enabled_below_the_v2_root_is_left_as_it_is(tmp_path):
    root = v2_tree(tmp_path, subtree="cpu memory\n")
    with CpuQuota(0.25, "bench", root=root, cores=2) as quota:
        assert (quota.group / "cpu.max").read_text() == "25000 100000"
    assert (root / "cgroup.subtree_control").read_text() == "cpu memory\n"


def test_a_command_started_through_the_group_writes_its_own_pid_in_before_it_runs(tmp_path):
    with CpuQuota(0.5, "loadtest", root=v1_tree(tmp_path), cores=2) as quota:
        child = subprocess.run(
            quota.wrap([sys.executable, "-c", "import os; print(os.getpid())"]),
            capture_output=True,
            text=True,
            check=True,
            cwd=Path(cpuquota.__file__).parent.parent,
        )
        pid = child.stdout.strip()  # the same process: the start became the command
        assert (quota.group / "cgroup.procs").read_text() == pid
        assert (quota.acct_group / "cgroup.procs").read_text() == pid


def test_the_check_names_a_process_of_the_tree_found_outside_the_group(tmp_path):
    # A plain file does not make children inherit the group as the kernel does: the grandchild stays out.
    script = "import subprocess, sys, time\nsubprocess.Popen([sys.executable, '-c', 'import time; time.sleep(30)'])\n"
    script += "time.sleep(30)"
    with CpuQuota(0.5, "loadtest", root=v1_tree(tmp_path), cores=2) as quota:
        parent = subprocess.Popen(quota.wrap([sys.executable, "-c", script]), cwd=Path(cpuquota.__file__).parents[1])
        try:
            deadline = time.monotonic() + 20
            while not cpuquota.descendants(parent.pid) and time.monotonic() < deadline:
                time.sleep(0.05)
            (grandchild,) = cpuquota.descendants(parent.pid)
            assert quota.check(parent.pid) == [grandchild]
            assert quota.members == 1
            assert ("outside", f"processes outside the group: {grandchild}") in quota.report()
        finally:
            for pid in cpuquota.descendants(parent.pid):
                os.kill(pid, 9)
            parent.kill()
            parent.wait()


def test_the_report_gives_the_cpu_used_against_the_quota_and_the_throttling(tmp_path):
    with CpuQuota(0.5, "loadtest", root=v1_tree(tmp_path), cores=2) as quota:
        quota.enter()
        (quota.group / "cpu.stat").write_text("nr_periods 200\nnr_throttled 50\nthrottled_time 2500000000\n")
        (quota.acct_group / "cpuacct.usage").write_text("8000000000\n")
        usage = quota.settle()
        quota.started, quota.finished = 100.0, 120.0  # 20 s
        lines = dict(quota.report())
    assert usage == cpuquota.Usage(cpu_seconds=8.0, periods=200, throttled=50, throttled_seconds=2.5)
    assert lines["cpu used"] == (
        "0.40 CPU on average over 20 s (80% of the quota); throttled in 50 of 200 periods (25%), 2.5 s "
        "(cpu.stat nr_throttled, throttled_time)"
    )


def test_without_cpuacct_v1_says_the_cpu_used_is_not_accounted(tmp_path):
    with CpuQuota(0.5, "bench", root=v1_tree(tmp_path, cpuacct=False), cores=2) as quota:
        (quota.group / "cpu.stat").write_text("nr_periods 10\nnr_throttled 0\nthrottled_time 0\n")
        quota.started = time.monotonic()
        quota.settle()
        assert dict(quota.report())["cpu used"].startswith("CPU used not accounted (no cpuacct); throttled in 0 of 10")


def test_v1_with_cpu_and_cpuacct_mounted_together_reads_the_cpu_used_from_the_group_itself(tmp_path):
    root = tmp_path / "cpu,cpuacct"
    root.mkdir()
    for name in ("cgroup.procs", "cpu.cfs_quota_us", "cpuacct.usage"):
        (root / name).write_text("")
    (tmp_path / "cpuacct").symlink_to(root)  # as systemd links it
    with CpuQuota(0.5, "bench", root=root, cores=2) as quota:
        assert quota.procs_files() == [quota.group / "cgroup.procs"]  # no twin
        (quota.group / "cpuacct.usage").write_text("1500000000\n")
        assert quota.usage().cpu_seconds == 1.5


def test_v2_reads_the_cpu_used_from_cpu_stat(tmp_path):
    with CpuQuota(1.0, "bench", root=v2_tree(tmp_path), cores=2) as quota:
        (quota.group / "cpu.stat").write_text(
            "usage_usec 3000000\nnr_periods 40\nnr_throttled 4\nthrottled_usec 500000\n"
        )
        assert quota.usage() == cpuquota.Usage(3.0, 40, 4, 0.5)


def test_processes_left_in_the_group_go_back_where_the_run_came_from_before_it_is_removed(tmp_path):
    root = v1_tree(tmp_path, cpuacct=False)
    with CpuQuota(0.5, "loadtest", root=root, cores=2) as quota:
        (quota.group / "cgroup.procs").write_text("4242\n")
    assert (root / "cgroup.procs").read_text() == "4242"
    assert not quota.group.exists()


def test_ctrl_c_in_the_run_removes_the_group(tmp_path):
    with pytest.raises(KeyboardInterrupt), CpuQuota(0.5, "loadtest", root=v1_tree(tmp_path), cores=2) as quota:
        raise KeyboardInterrupt
    assert not quota.group.exists()


def test_a_run_that_exits_without_leaving_the_block_removes_the_group_at_exit(tmp_path):
    root = v1_tree(tmp_path)
    script = (
        "from perf.quota.cgroups import CpuQuota\n"
        f"q = CpuQuota(0.5, 'bench', root={str(root)!r}, cores=2).__enter__()\n"
        "print(q.group)\nraise SystemExit(3)"
    )
    run = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, cwd=Path(cpuquota.__file__).parents[1]
    )
    assert run.returncode == 3
    group = Path(run.stdout.strip())
    assert group.parent == root and not group.exists()


@pytest.mark.parametrize(
    ("cpus", "reason"),
    [
        (0, "--cpu-quota 0: must be a number above 0 (CPUs the server may use)"),
        (-1, "--cpu-quota -1: must be a number above 0 (CPUs the server may use)"),
        (float("nan"), "--cpu-quota nan: must be a number above 0 (CPUs the server may use)"),
        (float("inf"), "--cpu-quota inf: must be a number above 0 (CPUs the server may use)"),
        (2.5, "--cpu-quota 2.5: is more than this machine's 2 cores"),
        (0.005, "--cpu-quota 0.005: is below 0.01, the kernel's least (1 ms per 100 ms period)"),
    ],
)
def test_a_quota_outside_the_machine_is_refused(tmp_path, cpus, reason):
    assert refusal(cpus, v1_tree(tmp_path)) == reason


def test_a_root_without_a_cpu_controller_is_refused_naming_it(tmp_path):
    assert refusal(1.0, tmp_path) == (
        f"--cpu-quota 1: no cpu controller at {tmp_path} (neither cgroup v1's cpu.cfs_quota_us nor v2's "
        "cgroup.controllers naming cpu)"
    )


def test_a_v2_root_without_cpu_among_its_controllers_is_refused(tmp_path):
    root = v2_tree(tmp_path)
    (root / "cgroup.controllers").write_text("memory pids\n")
    assert "no cpu controller at" in refusal(1.0, root)


def test_a_cgroup_file_nobody_may_write_is_refused_naming_it(tmp_path):
    root = v1_tree(tmp_path)
    (root / "cgroup.procs").chmod(0o444)
    assert refusal(1.0, root) == (
        f"--cpu-quota 1: {root / 'cgroup.procs'} is not writable "
        "(a cgroup needs root, and a cgroup file system mounted read-write)"
    )


def test_a_group_the_kernel_will_not_make_is_refused_and_nothing_is_left(tmp_path):
    root = v2_tree(tmp_path)
    quota = CpuQuota(1.0, "bench", root=root, cores=2)
    (root / quota.name).write_text("in the way")  # mkdir fails as the kernel's refusal would
    with pytest.raises(QuotaRefused, match=r"^--cpu-quota 1: could not make the cgroup .*: File exists$"):
        quota.__enter__()


def test_a_platform_without_cgroups_is_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(sys, "platform", "darwin")
    assert refusal(1.0, v1_tree(tmp_path)) == "--cpu-quota 1: needs Linux cgroups, which darwin does not have"


def test_without_the_option_there_is_no_group():
    with cpuquota.from_option(None, "bench") as quota:
        assert quota is None


def real_quota(cpus: float) -> CpuQuota:
    """A group under this machine's own cpu controller, or the test skipped with the reason."""
    try:
        return CpuQuota(cpus, "test")
    except QuotaRefused as refused:
        pytest.skip(f"no writable cpu controller here: {refused}")


def test_a_busy_child_in_a_group_of_a_fifth_cpu_gets_about_a_fifth():
    quota = real_quota(0.2)
    with quota:
        started = time.monotonic()
        child = subprocess.Popen(quota.wrap([sys.executable, "-c", BUSY.format(seconds=1.0)]))
        _pid, status, rusage = os.wait4(child.pid, 0)
        child.returncode = os.waitstatus_to_exitcode(status)
        elapsed = time.monotonic() - started
        used = quota.settle()
    cpu = rusage.ru_utime + rusage.ru_stime
    assert child.returncode == 0
    # Unlimited it would use ~1 CPU over the second; a generous bound, not a timing.
    assert 0.02 < cpu / elapsed < 0.5, (cpu, elapsed)
    assert used.throttled > 0
    if used.cpu_seconds is not None:
        assert used.cpu_seconds / elapsed < 0.5
    assert not quota.group.exists()


def test_a_process_tree_started_in_a_real_group_is_in_it_whole():
    quota = real_quota(1.0)
    script = "import subprocess, sys, time\nsubprocess.Popen([sys.executable, '-c', 'import time; time.sleep(30)'])\n"
    script += "time.sleep(30)"
    with quota:
        parent = subprocess.Popen(quota.wrap([sys.executable, "-c", script]), cwd=Path(cpuquota.__file__).parents[1])
        try:
            deadline = time.monotonic() + 20
            while not cpuquota.descendants(parent.pid) and time.monotonic() < deadline:
                time.sleep(0.05)
            assert quota.check(parent.pid) == []
            assert quota.members == 2
        finally:
            for pid in cpuquota.descendants(parent.pid):
                os.kill(pid, 9)
            parent.kill()
            parent.wait()
    assert not quota.group.exists()


def test_this_process_goes_into_a_real_group_and_back_where_it_was():
    quota = real_quota(1.0)
    before = Path("/proc/self/cgroup").read_text()
    with quota:
        quota.enter()
        assert os.getpid() in quota.pids()
        quota.leave()
        assert os.getpid() not in quota.pids()
    assert Path("/proc/self/cgroup").read_text() == before
    assert not quota.group.exists()


def test_a_group_of_the_same_name_already_there_is_refused_and_left_with_its_processes(tmp_path):
    # Another run's group (a run killed before it could remove it, or one in another pid
    # namespace with the same pid): not this run's to empty or remove.
    root = v1_tree(tmp_path)
    foreign = root / f"skat-office-bench-{os.getpid()}"
    foreign.mkdir()
    (foreign / "cgroup.procs").write_text("4242\n")
    (foreign / "cpu.cfs_quota_us").write_text("50000\n")
    with pytest.raises(QuotaRefused, match="could not make the cgroup"):
        CpuQuota(0.5, "bench", root=root, cores=2).__enter__()
    assert (foreign / "cgroup.procs").read_text() == "4242\n"
    assert (foreign / "cpu.cfs_quota_us").read_text() == "50000\n"
    assert (root / "cgroup.procs").read_text() == "1\n"  # nothing moved to the run's home


def left_by_a_killed_run(root: Path, name: str, procs: str = "", age: float = 3600) -> Path:
    group = root / name
    group.mkdir()
    (group / "cgroup.procs").write_text(procs)
    (group / "cpu.cfs_quota_us").write_text("50000\n")
    then = time.time() - age
    os.utime(group, (then, then))
    return group


def test_an_empty_group_left_by_a_killed_run_is_removed_by_the_next_run(tmp_path):
    root = v1_tree(tmp_path)
    gone = 4_194_304 + 17  # above Linux's largest pid: no such process
    left = left_by_a_killed_run(root, f"skat-office-loadtest-{gone}")
    with CpuQuota(0.5, "bench", root=root, cores=2):
        assert not left.exists()


def test_a_group_with_a_process_in_it_a_live_run_s_or_a_new_one_is_left_alone(tmp_path):
    root = v1_tree(tmp_path)
    gone = 4_194_304 + 17
    busy = left_by_a_killed_run(root, f"skat-office-loadtest-{gone}", procs="4242\n")
    live = left_by_a_killed_run(root, f"skat-office-loadtest-{os.getppid()}")
    new = left_by_a_killed_run(root, f"skat-office-bench-{gone + 1}", age=1)
    foreign = left_by_a_killed_run(root, f"someone-else-{gone}")
    with CpuQuota(0.5, "bench", root=root, cores=2):
        assert busy.is_dir() and live.is_dir() and new.is_dir() and foreign.is_dir()
    assert (busy / "cgroup.procs").read_text() == "4242\n"
