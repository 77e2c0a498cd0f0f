"""The FUSE mount the simulator's tests need: skipped, with the reason, where it cannot be had."""

from __future__ import annotations

import pytest

from perf.powercut.mount import available
from perf.powercut.office import Office


@pytest.fixture(scope="session")
def fuse_usable(tmp_path_factory) -> None:
    """Skips the test unless /dev/fuse, fusermount3 and mfusepy are there and a mount works."""
    if problem := available():
        pytest.skip(f"FUSE is not usable here: {problem}")
    probe = Office(tmp_path_factory.mktemp("fuse-probe"), processes=1, threads=1)
    probe.fresh()
    try:
        probe.mount(names_at_once=False)
    except RuntimeError as error:
        pytest.skip(f"FUSE is not usable here: {error} (a container without the right to mount?)")
    probe.unmount()


@pytest.fixture
def office(fuse_usable, tmp_path):
    """A fresh data folder on the simulated disk, not mounted yet; unmounted after the test."""
    office = Office(tmp_path, processes=1, threads=1)
    office.fresh()
    yield office
    office.close()
