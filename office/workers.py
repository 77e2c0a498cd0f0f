"""The hall served by more than one process, the same way on Windows, macOS and Linux.

One Python process runs one core's worth of Python (the GIL): on a hall laptop the
phones' entries, the crowd's standings and the seat lookups after a draw need more
(docs: Benchmarks). ``serve`` therefore opens the listening socket itself and hands it
to ``processes - 1`` more processes started with multiprocessing's *spawn* (the only
start method Windows has; no fork, no ``exec``): multiprocessing passes a socket to a
spawned child on every platform (``socket.share`` on Windows, the descriptor on the
others). Each process runs waitress on the same socket; the system gives each new
connection to one of them.

The first process is the command's own: it serves too, keeps the evening's backups and
stops the others when it stops (Ctrl-C, SIGTERM). A child watches it and stops by
itself when it is gone, even killed without a word, so no orphan keeps the port or the
database. A child that dies is started again.
"""

from __future__ import annotations

import _thread
import contextlib
import logging
import multiprocessing
import multiprocessing.connection
import os
import signal
import socket
import threading
import time
from collections.abc import Callable, Iterator

from config.logs import flush_access_log
from office import cores

logger = logging.getLogger(__name__)

#: How long the first process waits for the others to stop before it kills them.
STOP_SECONDS = 10
#: A child that dies sooner than this after its start is not started again (a broken
#: start would loop); the evening goes on with the processes left.
QUICK_DEATH_SECONDS = float(os.environ.get("SERVE_QUICK_DEATH_SECONDS") or 5)
#: A child that died is started again after this pause, unless the office is stopping.
RESTART_PAUSE_SECONDS = 2.0
#: A start that keeps failing is logged at its first attempt and at every this many after.
REPEATED_FAILURE_LOGGED = 30
#: The most processes ``--processes`` takes: each holds its own Django (about 80 MB).
MAX_PROCESSES = 16


def default_processes() -> int:
    """One process per core this office may use (office.cores: a container's CPU limit
    counts), at least one and at most four: the laptop's director needs a core too on big laptops."""
    return max(1, min(4, cores.usable()))


def listening_socket(bind: str, port: int, backlog: int = 2048) -> socket.socket:
    """The socket every serving process accepts on: bound, listening, a long backlog for
    the burst of phones after a draw. Exclusive on Windows (no second program may bind
    the same port beside it), reusable after a restart elsewhere."""
    family = socket.AF_INET6 if ":" in bind else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        if os.name == "nt":
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_EXCLUSIVEADDRUSE, 1)
        else:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((bind, port))
        sock.listen(backlog)
    except OSError:
        sock.close()
        raise
    sock.setblocking(False)
    return sock


class Children:
    """The serving processes beside the command's own: started, watched, restarted, stopped."""

    def __init__(self, sock: socket.socket, count: int, target: Callable[..., None], *args: object) -> None:
        """``count`` processes, each running ``target(sock, series_finished, *args)`` (a
        module-level function: spawn finds it by name), which serves on ``sock`` through
        :func:`serve_child` and releases ``series_finished`` (:func:`relay_series`)."""
        self.sock, self.count, self.target, self.args = sock, count, target, args
        self.context = multiprocessing.get_context("spawn")
        self.processes: list[multiprocessing.process.BaseProcess] = []
        self.started: dict[int, float] = {}
        self.stopping = threading.Event()
        self.watcher: threading.Thread | None = None
        #: Failed attempts in a row to start a child in place of a dead one (:meth:`_restart`).
        self.failed_starts = 0
        #: Released by a child when a series was finished there: the backups run in this process
        #: only. A semaphore, not an Event: a child killed inside Event.set() would leave its
        #: lock held, and every other child's next set() (a request thread) would wait for ever.
        self.series_finished = self.context.Semaphore(0)
        self.relay: threading.Thread | None = None

    def start(self) -> Children:
        """Spawn the children and start watching them.

        A Ctrl-C or SIGTERM meanwhile (pressed as soon as the banner shows) is taken once
        all is started (:func:`signals_deferred`), so that :meth:`stop` finds every child
        and thread. Taken at once, it stopped a spawn halfway (the child, left with nothing
        to read, printed a traceback), a child just spawned went missing from
        ``processes``, or the watcher was made but not started (``stop`` then failed).
        Blocking SIGINT in this thread (:func:`interrupts_held`) does not hold it back:
        another thread of this process (the backups') takes it, and Python raises it here.
        """
        with signals_deferred():
            for _ in range(self.count):
                self.processes.append(self._spawn())
            if self.count:
                self.watcher = threading.Thread(target=self._watch, name="serve-children", daemon=True)
                self.watcher.start()
                self.relay = threading.Thread(
                    target=relay_series, args=(self.series_finished, self.stopping), name="serve-series", daemon=True
                )
                self.relay.start()
        return self

    def _spawn(self) -> multiprocessing.process.BaseProcess:
        process = self.context.Process(
            target=self.target,
            args=(self.sock, self.series_finished, *self.args),
            name="skat-office-serve",
            daemon=True,
        )
        with interrupts_held():
            process.start()
        self.started[process.pid or 0] = time.monotonic()
        return process

    def _watch(self) -> None:
        """Start again a child that died while the office serves (a crash, a killed process).

        A start that fails (too many processes, no memory, an argument that does not
        pickle) is logged and tried again every RESTART_PAUSE_SECONDS for as long as the
        office serves: this thread never ends before the office stops, and the first
        process serves on meanwhile.
        """
        missing = 0  # children that died and are still to be started again
        while not self.stopping.is_set():
            sentinels = [process.sentinel for process in self.processes]
            if not sentinels and not missing:
                return
            ended = multiprocessing.connection.wait(sentinels, timeout=0 if missing else 1.0) if sentinels else []
            if self.stopping.is_set():
                return
            for process in [p for p in self.processes if p.sentinel in ended]:
                process.join(0)
                lived = time.monotonic() - self.started.pop(process.pid or 0, 0.0)
                self.processes.remove(process)
                if lived < QUICK_DEATH_SECONDS:
                    logger.warning(
                        "a serving process stopped %.1f s after its start (exit code %s); not started again",
                        lived,
                        process.exitcode,
                    )
                    continue
                # Ctrl-C reaches the children with the first process: wait before taking it for a crash.
                if self.stopping.wait(RESTART_PAUSE_SECONDS):
                    return
                logger.warning("a serving process stopped (exit code %s); starting another", process.exitcode)
                missing += 1
            if missing:
                if self._restart():
                    missing -= 1
                elif self.stopping.wait(RESTART_PAUSE_SECONDS):
                    return

    def _restart(self) -> bool:
        """Start one child in place of a dead one; False (logged, one line) when that fails."""
        try:
            self.processes.append(self._spawn())
        except Exception as error:
            self.failed_starts += 1
            if (self.failed_starts - 1) % REPEATED_FAILURE_LOGGED:
                return False  # failing on: logged at the 1st, the 31st, ... attempt, not every 2 s
            logger.error(
                "could not start a serving process in place of the one that stopped (%s: %s; attempt %d); "
                "trying again in %g s; the office serves on meanwhile",
                type(error).__name__,
                error,
                self.failed_starts,
                RESTART_PAUSE_SECONDS,
            )
            return False
        if self.failed_starts:
            logger.warning("a serving process started again (failed attempts before: %d)", self.failed_starts)
            self.failed_starts = 0
        return True

    def stop(self) -> None:
        """Stop them all: asked first (SIGTERM, on Windows TerminateProcess), killed after STOP_SECONDS."""
        self.stopping.set()
        for thread in (self.watcher, self.relay):
            if thread is not None and thread.ident is not None:  # started
                thread.join(timeout=2)
        for process in self.processes:
            if process.is_alive():
                process.terminate()
        for process in self.processes:
            process.join(STOP_SECONDS)
            if process.is_alive():
                process.kill()
                process.join(STOP_SECONDS)


def relay_series(series_finished, stopping: threading.Event) -> None:
    """In the first process: a series finished in a child (``series_finished`` released
    there, core.backups.forward_series) wakes this process's backups as one finished here does."""
    from core.backups import after_series

    while not stopping.is_set():
        if series_finished.acquire(timeout=1.0):
            while series_finished.acquire(False):  # series finished at once: one backup
                pass
            after_series()


def interrupts_held() -> contextlib.AbstractContextManager[None]:
    """SIGINT blocked in this thread while a child is spawned (not on Windows, which has no
    signal masks).

    A terminal's Ctrl-C goes to every process of the office. A child that gets it while
    Python is still starting and importing prints a traceback. The child inherits the
    block (as CPython's own resource tracker does) and lifts it in :func:`serve_child`,
    once a Ctrl-C stops it quietly. In this process the block alone does not hold a
    Ctrl-C back (another thread takes it and Python raises it in the main thread at
    once): :meth:`Children.start` defers it too (:func:`signals_deferred`).
    """
    if not hasattr(signal, "pthread_sigmask"):
        return contextlib.nullcontext()
    return _blocked({signal.SIGINT})


@contextlib.contextmanager
def _blocked(signals: set[signal.Signals]) -> Iterator[None]:
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, signals)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


@contextlib.contextmanager
def signals_deferred() -> Iterator[None]:
    """Ctrl-C (SIGINT) and SIGTERM taken when the block ends, not inside it: in the main
    thread, the only one where Python raises KeyboardInterrupt (elsewhere this does nothing).

    A signal that came meanwhile is raised again as the block ends, to the handler it
    would have reached (KeyboardInterrupt, or the default: the process ends): delayed,
    never lost.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    came: list[int] = []

    def note(signum, frame) -> None:
        came.append(signum)

    previous = {}
    for signum in (signal.SIGINT, getattr(signal, "SIGTERM", None)):
        if signum is not None and signal.getsignal(signum) not in (None, signal.SIG_IGN):  # None: not set from Python
            previous[signum] = signal.signal(signum, note)
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
        for signum in dict.fromkeys(came):
            signal.raise_signal(signum)


def serve_child(server) -> None:
    """Serve ``server`` (waitress on the shared socket) in a spawned process until it is stopped.

    It stops as the first process does: on Ctrl-C (Windows sends it to every process of
    the console), on SIGTERM (the first process's stop), or when the first is gone.
    """
    signal.signal(signal.SIGINT, signal.default_int_handler)
    if hasattr(signal, "SIGTERM"):
        signal.signal(signal.SIGTERM, _interrupt)
    _watch_parent()
    try:
        if hasattr(signal, "pthread_sigmask"):  # blocked from the start (interrupts_held): a Ctrl-C since arrives now
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
        server.run()  # returns on KeyboardInterrupt, its threads stopped
    except KeyboardInterrupt:
        pass
    finally:
        # On Windows the first process terminates a helper that has not ended within its
        # wait, and atexit's logging.shutdown never runs then: what waits is written before
        # waitress's threads are waited for (up to seconds), and what they add after.
        flush_access_log()
        server.close()
        flush_access_log()


def _interrupt(signum, frame) -> None:
    raise KeyboardInterrupt


def _watch_parent() -> None:
    """Stop this child when the first process is gone, however it went (Ctrl-C, a crash, killed)."""
    parent = multiprocessing.parent_process()
    if parent is None:
        return

    def watch() -> None:
        multiprocessing.connection.wait([parent.sentinel])
        _thread.interrupt_main()  # KeyboardInterrupt in the serving loop, within its poll timeout

    threading.Thread(target=watch, name="serve-parent-watch", daemon=True).start()
