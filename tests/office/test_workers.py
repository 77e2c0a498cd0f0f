"""More than one serving process on one port (office.workers), as ``skat-office serve`` runs them.

A real office in its own processes (``python -m perf.serving``, the code path ``serve``
takes) on loopback: the second process answers requests on the first one's socket, a
child that dies is replaced, Ctrl-C stops them all, and children never outlive a first
process killed without a word (they would hold the port and the evening's database).
The processes are found in /proc, so these tests run on Linux; the office itself reads
no /proc.
"""

from __future__ import annotations

import os
import secrets
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from django.conf import settings

from perf.client import LOOPBACK
from perf.server import free_port

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="finds the processes in /proc")

DEADLINE = 60.0


def until(condition: Callable[[], object], what: str, deadline: float = DEADLINE) -> object:
    """Poll ``condition`` until it holds (its value) or fail after ``deadline`` seconds."""
    end = time.monotonic() + deadline
    while time.monotonic() < end:
        value = condition()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"not within {deadline:.0f} s: {what}")


def stat(pid: int) -> list[str] | None:
    """The fields of /proc/PID/stat after the command's name, or None when gone (or a zombie)."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2 :].split()
    return None if fields[0] in ("Z", "X") else fields


def serving_children(parent: int) -> set[int]:
    """The spawned serving processes of ``parent`` (not multiprocessing's resource tracker)."""
    found = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        fields = stat(int(entry.name))
        try:
            command = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        if fields and int(fields[1]) == parent and b"spawn_main" in command:
            found.add(int(entry.name))
    return found


def cpu_ticks(pid: int) -> int:
    fields = stat(pid)
    return int(fields[11]) + int(fields[12]) if fields else 0


def healthy(port: int) -> bool:
    import urllib.request

    try:
        with urllib.request.urlopen(f"http://{LOOPBACK}:{port}/healthz", timeout=5) as answer:
            return answer.status == 200
    except OSError:
        return False


@pytest.fixture
def office(tmp_path):
    """The office served by two processes on a loopback port; yields (process, port)."""
    port = free_port()
    env = os.environ | {
        "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
        "CACHE_DIR": str(tmp_path / "cache"),
        "SKAT_OFFICE_DATA": str(tmp_path),
        "DEBUG": "0",
        "SECURE": "0",
        "ALLOWED_HOSTS": LOOPBACK,
        "OFFICE_URL": f"http://{LOOPBACK}:{port}",
        "SECRET_KEY": "workers-" + secrets.token_urlsafe(48),
        "DJANGO_SETTINGS_MODULE": "config.settings",
        # A child that dies is replaced however soon (5 s in the hall, against a broken start looping).
        "SERVE_QUICK_DEATH_SECONDS": "0",
    }
    process = subprocess.Popen(
        [sys.executable, "-m", "perf.serving", LOOPBACK, str(port), "4", "2"],
        cwd=settings.BASE_DIR,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        until(lambda: healthy(port), "the office answers")
        yield process, port
    finally:
        for child in serving_children(process.pid):
            os.kill(child, signal.SIGKILL)
        process.kill()
        process.wait()


def test_the_second_process_answers_on_the_first_ones_port_and_ctrl_c_stops_both(office):
    process, port = office
    (child,) = until(lambda: serving_children(process.pid), "a second serving process")
    until(lambda: healthy(port), "answers")
    before = cpu_ticks(child)
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(8) as pool:
        assert all(pool.map(lambda _: healthy(port), range(300)))
    # Idle, a process spends no CPU; the child took its share of the 300 answers.
    assert cpu_ticks(child) - before >= 3
    process.send_signal(signal.SIGINT)
    assert process.wait(timeout=DEADLINE) == 0
    until(lambda: stat(child) is None, "the second process stopped with the first")


def test_a_dead_child_is_replaced_and_children_never_outlive_the_first_process(office):
    process, port = office
    (child,) = until(lambda: serving_children(process.pid), "a second serving process")
    os.kill(child, signal.SIGKILL)
    (replacement,) = until(lambda: serving_children(process.pid) - {child}, "a new second process")
    until(lambda: stat(replacement) and healthy(port), "the new one serving")
    # The first process killed without a word: no orphan keeps the port or the database.
    process.kill()
    process.wait()
    until(lambda: stat(replacement) is None, "the second process stopped when the first was killed")
    until(lambda: not healthy(port), "nothing answers on the port any more")
