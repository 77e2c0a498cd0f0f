"""How many cores this office may use: the machine's, less what the system lets it have.

``os.cpu_count()`` counts the machine's cores. A container limited to two of sixteen
(``docker run --cpus 2``, compose's ``cpus:``) still sees sixteen there, and an office
starting a serving process per core would start more than it may run: they would take
turns on the two, each a Django of about 80 MB. So the count is the cores this process
may be scheduled on (``os.sched_getaffinity``: ``--cpuset-cpus``, ``taskset``), capped by
the control group's CPU quota: cgroup v2's ``cpu.max`` (``150000 100000`` is 1.5 cores),
v1's ``cpu.cfs_quota_us`` over ``cpu.cfs_period_us`` (``-1``: none), the smallest along the
group's parents. A part of a core counts as a whole one (1.5 cores: 2), at least one.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable
from pathlib import Path

#: Where the control groups are mounted, and where this process says which it is in.
CGROUP_ROOT = Path("/sys/fs/cgroup")
PROC_CGROUP = Path("/proc/self/cgroup")
#: cgroup v1 mounts the cpu controller under one of these names.
V1_FOLDERS = ("cpu,cpuacct", "cpu", "cpuacct,cpu")


def affinity() -> int:
    """The cores this process may run on (all of the machine's where the system cannot say)."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


def _read(path: Path) -> list[str]:
    try:
        return path.read_text(encoding="ascii").split()
    except (OSError, UnicodeDecodeError):
        return []


def _v2_limit(folder: Path) -> float | None:
    """``cpu.max``: ``QUOTA PERIOD`` in microseconds, or ``max PERIOD`` (no limit)."""
    fields = _read(folder / "cpu.max")
    try:
        quota, period = float(fields[0]), float(fields[1])
    except (IndexError, ValueError):  # "max", missing, unreadable
        return None
    return quota / period if quota > 0 and period > 0 else None


def _v1_limit(folder: Path) -> float | None:
    """``cpu.cfs_quota_us`` (``-1``: no limit) over ``cpu.cfs_period_us``."""
    try:
        quota = float(_read(folder / "cpu.cfs_quota_us")[0])
        period = float(_read(folder / "cpu.cfs_period_us")[0])
    except (IndexError, ValueError):
        return None
    return quota / period if quota > 0 and period > 0 else None


def _groups(proc_cgroup: Path) -> tuple[str, str]:
    """This process's group in the v2 hierarchy and in v1's cpu controller ("/" when unsaid)."""
    v2 = v1 = "/"
    try:
        lines = proc_cgroup.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        lines = []
    for line in lines:
        hierarchy, _, rest = line.partition(":")
        controllers, _, group = rest.partition(":")
        if hierarchy == "0" and not controllers:
            v2 = group or "/"
        elif "cpu" in controllers.split(","):
            v1 = group or "/"
    return v2, v1


def _along(mount: Path, group: str, limit: Callable[[Path], float | None]) -> float | None:
    """The smallest limit from the group's folder up to the mount's root.

    Inside a container the mount's root is the container's own group, while the group's
    name may still be the host's (cgroup v1 without a namespace): a group whose folder is
    not there is looked for at the root.
    """
    folder = mount / group.strip("/")
    if not folder.is_dir():
        folder = mount
    limits = []
    while True:
        found = limit(folder)
        if found is not None:
            limits.append(found)
        if folder == mount or mount not in folder.parents:
            break
        folder = folder.parent
    return min(limits, default=None)


def quota(root: Path = CGROUP_ROOT, proc_cgroup: Path = PROC_CGROUP) -> float | None:
    """The control group's CPU quota in cores (1.5), or None when there is none."""
    v2_group, v1_group = _groups(proc_cgroup)
    if (root / "cgroup.controllers").exists():  # the unified (v2) hierarchy
        return _along(root, v2_group, _v2_limit)
    for name in V1_FOLDERS:
        if (root / name).is_dir():
            return _along(root / name, v1_group, _v1_limit)
    return None


def usable(root: Path = CGROUP_ROOT, proc_cgroup: Path = PROC_CGROUP) -> int:
    """The cores this office may use: its affinity, capped by the quota rounded up, at least one."""
    cores = affinity()
    limit = quota(root, proc_cgroup)
    if limit is not None:
        # 2.0001 cores is two (a period and quota that do not divide evenly), 1.5 is two.
        cores = min(cores, math.ceil(round(limit, 2)))
    return max(1, cores)
