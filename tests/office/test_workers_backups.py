"""A series finished in a spawned serving process backs up at once, as in the first one.

The backups run in the first process only (office.serve.serve_forever); a child that
answered a series' last entry tells it through a multiprocessing Semaphore (office.workers,
core.backups.forward_series). Without that, three of four series on a 4-core laptop
waited for the next BACKUP_EVERY_MINUTES backup. No process is spawned here: the child's
side and the first process's relay run in this process, joined by the same Semaphore.
"""

from __future__ import annotations

import multiprocessing
import threading

from core import backups
from dashboard.signals import series_finished
from office import serve, workers


class Maker:
    """The first process's backup maker, as the relay wakes it."""

    def __init__(self) -> None:
        self.woken = threading.Event()

    def now(self) -> None:
        self.woken.set()


def test_a_series_finished_in_a_child_wakes_the_first_processs_backups(settings):
    event = multiprocessing.get_context("spawn").Semaphore(0)
    before = set(backups._RUNNING)
    stopping = threading.Event()
    relay = threading.Thread(target=workers.relay_series, args=(event, stopping), daemon=True)
    try:
        # The child's side: its settings as the first process's, its series forwarded.
        serve.child_setup(event, "http://192.168.1.20:8000", 8000)
        assert "192.168.1.20" in settings.ALLOWED_HOSTS
        child_side = set(backups._RUNNING) - before
        series_finished.send(sender=None)
        series_finished.send(sender=None)
        assert event.acquire(False), "the child's finished series never reached the first process"
        event.release()  # both series still to be relayed
        # The first process's side: its own maker only (the child's forwarder is not in it).
        with backups._RUNNING_LOCK:
            backups._RUNNING.difference_update(child_side)
        maker = Maker()
        with backups._RUNNING_LOCK:
            backups._RUNNING.add(maker)
        relay.start()
        assert maker.woken.wait(30), "the relay did not wake the first process's backups"
        assert not event.acquire(False), "two series finished at once: one backup, the semaphore drained"
    finally:
        stopping.set()
        if relay.is_alive():
            relay.join(5)
        with backups._RUNNING_LOCK:
            backups._RUNNING.clear()
            backups._RUNNING.update(before)
