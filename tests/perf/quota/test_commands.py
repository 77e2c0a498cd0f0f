"""``--cpu-quota`` of ``manage.py loadtest`` and ``manage.py bench``: refused in one line before any data is
built where no group can be made; a real short load test with the server in a group of one CPU reports the
quota and what the server used of it, and leaves no group behind.
"""

from __future__ import annotations

import io
import os
import re

import pytest
from django.core.management import CommandError, call_command

from perf.quota import cgroups as cpuquota

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("scratch_template")]


def refused(*argv: str) -> tuple[str, str]:
    """The command's one-line refusal, and what it printed before it (nothing is built)."""
    out = io.StringIO()
    with pytest.raises(CommandError) as error:
        call_command(*argv, stdout=out)
    return str(error.value), out.getvalue()


@pytest.mark.parametrize("command", ["loadtest", "bench"])
def test_a_quota_of_zero_is_refused_before_anything_is_built(command):
    message, printed = refused(command, "--cpu-quota", "0")
    assert message == "--cpu-quota 0: must be a number above 0 (CPUs the server may use)"
    assert printed == ""


@pytest.mark.parametrize("profile", ["tables", "hall", "seats", "publish"])
def test_a_quota_above_the_machines_cores_is_refused_for_every_profile(profile):
    cores = os.cpu_count()
    message, printed = refused("loadtest", "--profile", profile, "--cpu-quota", str(cores + 1))
    assert message == f"--cpu-quota {cores + 1}: is more than this machine's {cores} cores"
    assert printed == ""


@pytest.mark.parametrize("command", ["loadtest", "bench"])
def test_a_cgroup_root_that_is_not_writable_is_refused_naming_it(command, tmp_path, monkeypatch):
    root = tmp_path / "cpu"
    root.mkdir()
    for name in ("cgroup.procs", "cpu.cfs_quota_us", "cpu.cfs_period_us"):
        (root / name).write_text("")
        (root / name).chmod(0o444)
    monkeypatch.setattr(cpuquota, "default_root", lambda: root)
    message, printed = refused(command, "--cpu-quota", "1.0")
    assert message == (
        f"--cpu-quota 1: {root / 'cgroup.procs'} is not writable "
        "(a cgroup needs root, and a cgroup file system mounted read-write)"
    )
    assert printed == ""
    assert sorted(p.name for p in root.iterdir()) == ["cgroup.procs", "cpu.cfs_period_us", "cpu.cfs_quota_us"]


def test_a_machine_without_a_cpu_controller_is_refused_naming_where_it_looked(tmp_path, monkeypatch):
    monkeypatch.setattr(cpuquota, "default_root", lambda: tmp_path)
    message, _printed = refused("loadtest", "--profile", "hall", "--cpu-quota", "0.5")
    assert message.startswith(f"--cpu-quota 0.5: no cpu controller at {tmp_path} ")


def test_a_short_load_test_with_the_server_in_one_cpu_reports_the_quota_and_leaves_no_group():
    try:
        cpuquota.CpuQuota(1.0, "test")
    except cpuquota.QuotaRefused as refusal:
        pytest.skip(f"no writable cpu controller here: {refusal}")
    root = cpuquota.default_root()
    out = io.StringIO()
    try:
        call_command(
            "loadtest",
            *("--clients", "4", "--rounds", "1", "--think", "0.2", "--workers", "2", "--cpu-quota", "1.0"),
            stdout=out,
        )
    except CommandError as error:
        # Only the latency target may miss: the server has one CPU on a shared test machine.
        assert re.fullmatch(r"load test failed: p99 \d+ ms >= 200 ms", str(error)), str(error)
    text = out.getvalue()
    version = "v1 cpu.cfs_quota_us" if (root / "cpu.cfs_quota_us").exists() else "v2 cpu.max"
    head = re.search(
        rf"\ncpu quota +CPU quota 1\.0 of {os.cpu_count()} cores \(cgroup {version}\), "
        r"the server's (\d+) processes in it\n",
        text,
    )
    assert head, text
    assert int(head.group(1)) >= 2  # waitress's two: the parent and the worker it spawned
    assert re.search(r"\ncpu used +(\d\.\d\d CPU on average over [\d.]+ s|CPU used not accounted)", text)
    assert "throttled in " in text
    assert "lost 0, duplicated 0, not as entered 0, never confirmed 0" in text
    assert not [p for p in root.iterdir() if p.name == f"skat-office-loadtest-{os.getpid()}"]
