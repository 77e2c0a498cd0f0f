"""The thread that starts a dead serving process again (office.workers.Children._watch),
with stand-ins for the processes: a start that fails is logged and tried again, never the
end of the thread (the first process serves on meanwhile)."""

from __future__ import annotations

import logging
import multiprocessing
import signal
import threading
import time
import types

import pytest

from office import workers


class FakeProcess:
    """A serving process as the watcher sees it: its sentinel is the reading end of a pipe,
    ready (ended) once the writing end is closed."""

    pids = iter(range(90000, 99999))

    def __init__(self) -> None:
        self.sentinel, self._alive = multiprocessing.Pipe(duplex=False)
        self.pid = next(FakeProcess.pids)
        self.exitcode: int | None = None

    def die(self, exitcode: int = -9) -> None:
        self.exitcode = exitcode
        self._alive.close()

    def join(self, timeout: float | None = None) -> None:
        pass

    def is_alive(self) -> bool:
        return self.exitcode is None


class Said(logging.Handler):
    """An event set once office.workers logs a line containing ``text``: the test waits on
    what the watcher thread says, never on time."""

    def __init__(self, text: str) -> None:
        super().__init__(logging.DEBUG)
        self.text, self.event = text, threading.Event()

    def emit(self, record: logging.LogRecord) -> None:
        if self.text in record.getMessage():
            self.event.set()


@pytest.fixture
def said():
    handlers: list[Said] = []

    def listen(text: str) -> threading.Event:
        handler = Said(text)
        logging.getLogger("office.workers").addHandler(handler)
        handlers.append(handler)
        return handler.event

    yield listen
    for handler in handlers:
        logging.getLogger("office.workers").removeHandler(handler)


@pytest.fixture
def children(monkeypatch):
    """A Children whose one child is a FakeProcess that lived long; the watcher is started by the test."""
    monkeypatch.setattr(workers, "RESTART_PAUSE_SECONDS", 0.05)
    made = workers.Children(None, 1, print)
    first = FakeProcess()
    made.processes.append(first)
    made.started[first.pid] = time.monotonic() - 60
    yield made, first
    made.stopping.set()


def _watch(made: workers.Children) -> threading.Thread:
    watcher = threading.Thread(target=made._watch, daemon=True)
    watcher.start()
    return watcher


def test_a_failing_start_is_logged_and_tried_again(children, monkeypatch, caplog, said):
    made, first = children
    replacement = FakeProcess()
    starts: list[str] = []

    def spawn():
        starts.append("tried")
        if len(starts) == 1:
            raise OSError(24, "Too many open files")
        made.started[replacement.pid] = time.monotonic()
        return replacement

    monkeypatch.setattr(made, "_spawn", spawn)
    caplog.set_level(logging.WARNING, logger="office.workers")
    started_again = said("a serving process started again")
    watcher = _watch(made)
    first.die()
    assert started_again.wait(10), "the child did not start again after the failed start"
    assert made.processes == [replacement]  # appended before the line is logged
    assert len(starts) == 2
    # The watcher lives on: the replacement's death is noticed too.
    assert watcher.is_alive()
    made.stopping.set()
    watcher.join(5)
    assert not watcher.is_alive()  # and every line it logged has reached caplog
    failed = [r for r in caplog.records if r.levelno == logging.ERROR]
    assert [r.name for r in failed] == ["office.workers"]
    assert (
        failed[0]
        .getMessage()
        .startswith(
            "could not start a serving process in place of the one that stopped "
            "(OSError: [Errno 24] Too many open files; attempt 1); trying again in 0.05 s"
        )
    )
    assert "a serving process started again (failed attempts before: 1)" in caplog.text


def test_a_start_failing_on_is_tried_until_the_office_stops_and_logged_now_and_then(
    children, monkeypatch, caplog, said
):
    made, first = children
    monkeypatch.setattr(workers, "REPEATED_FAILURE_LOGGED", 3, raising=False)
    attempts: list[int] = []

    def spawn():
        attempts.append(1)
        raise TypeError("cannot pickle '_thread.lock' object")

    monkeypatch.setattr(made, "_spawn", spawn)
    caplog.set_level(logging.WARNING, logger="office.workers")
    seventh = said("; attempt 7)")
    watcher = _watch(made)
    first.die()
    assert seventh.wait(10), "no seventh attempt logged"
    assert watcher.is_alive()
    made.stopping.set()
    watcher.join(5)
    assert not watcher.is_alive()
    logged = [r.getMessage() for r in caplog.records if r.levelno == logging.ERROR]
    assert [m.split("; attempt ")[1].split(")")[0] for m in logged][:3] == ["1", "4", "7"]
    assert all("TypeError: cannot pickle '_thread.lock' object" in m for m in logged)


def test_a_ctrl_c_while_the_children_are_spawned_is_taken_once_all_are_started(monkeypatch):
    """Ctrl-C as soon as the banner shows, while the first of two children is spawned: taken
    at once, it stopped the spawn halfway (a child printing EOFError) or left a child out
    of ``processes`` and the watcher unstarted (``stop`` failed with RuntimeError)."""
    if threading.current_thread() is not threading.main_thread():
        pytest.skip("Python raises KeyboardInterrupt in the main thread only")
    spawned: list[FakeProcess] = []

    class Interrupted(FakeProcess):
        def __init__(self, **kwargs) -> None:
            super().__init__()

        def start(self) -> None:
            spawned.append(self)
            if len(spawned) == 1:
                signal.raise_signal(signal.SIGINT)  # the terminal's Ctrl-C, amid the first spawn

        def terminate(self) -> None:
            self.die(-15)

    monkeypatch.setattr(workers, "relay_series", lambda series_finished, stopping: None)
    made = workers.Children(None, 2, print)
    made.context = types.SimpleNamespace(Process=Interrupted)
    with pytest.raises(KeyboardInterrupt):
        made.start()
    assert len(spawned) == 2 and made.processes == spawned  # every child spawned is one stop() finds
    assert made.watcher is not None and made.watcher.is_alive()
    made.stop()  # no RuntimeError
    assert not any(process.is_alive() for process in spawned)
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # Ctrl-C is Python's again


def test_a_sigterm_while_deferred_reaches_the_handler_it_would_have_reached():
    if threading.current_thread() is not threading.main_thread():
        pytest.skip("Python runs signal handlers in the main thread only")
    if not hasattr(signal, "SIGTERM") or not hasattr(signal, "pthread_kill"):
        pytest.skip("no SIGTERM to send to oneself here")
    came: list[str] = []
    previous = signal.signal(signal.SIGTERM, lambda signum, frame: came.append("handled"))
    try:
        with workers.signals_deferred():
            signal.raise_signal(signal.SIGTERM)
            came.append("inside")
        assert came == ["inside", "handled"]
    finally:
        signal.signal(signal.SIGTERM, previous)
