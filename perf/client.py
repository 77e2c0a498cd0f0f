"""A minimal HTTP/1.1 client over asyncio for the load test: loopback only, no dependency.

One connection per request, as a phone on Wi-Fi. It talks to loopback addresses
(:data:`LOOPBACK`, :data:`HALL`) and nowhere else: a load test never leaves the machine.

The load generator shares the machine with the server it measures, so a request costs it
as little as asyncio allows: on a selector loop (Linux, macOS) one non-blocking socket
driven by reader/writer callbacks, one future and one timer per request (:class:`_Exchange`),
not the streams' transport, protocol, reader, writer and the task ``wait_for`` wraps
around them (about twice the CPU). Other loops (Windows' proactor) take the portable
``loop.sock_*`` path.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import functools
import ipaddress
import os
import signal
import socket
import threading
import urllib.parse
from asyncio.selector_events import BaseSelectorEventLoop
from collections.abc import Coroutine, Iterator
from dataclasses import dataclass
from typing import Any, TypeVar

#: The address the table profile serves on and sends to (127.0.0.0/8).
LOOPBACK = "127.0.0.1"
#: The hall profile's address: another loopback address, standing for the hall's other devices.
HALL = "127.0.0.2"

#: One read takes what the socket holds, up to this (asyncio's transports read as much).
READ_SIZE = 256 * 1024
#: Readable only once this much came, or the server closed (SO_RCVLOWAT): an answer of up
#: to 32 KB wakes the loop once, at its end, not once per piece the server sent.
WAKE_AT = 32 * 1024 if hasattr(socket, "SO_RCVLOWAT") else 0
#: connect_ex's answers that mean "under way" on a non-blocking socket.
_UNDER_WAY = frozenset({0, errno.EINPROGRESS, errno.EAGAIN, errno.EWOULDBLOCK, errno.EALREADY})


T = TypeVar("T")


@dataclass
class Response:
    status: int
    headers: dict[str, str]
    body: bytes


def run_loop(coroutine: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run``, in a thread of its own when this thread runs an event loop already
    (a notebook, an async caller, or a test after a browser test: Playwright's sync API
    keeps its loop running in the thread), where ``asyncio.run`` refuses to start.

    Ctrl-C while it runs there (a KeyboardInterrupt raised in this thread), even while its
    thread is still starting, cancels the run and raises as soon as the run has stopped
    (at its next ``await``), as ``asyncio.run`` does: the run is not waited out.
    """
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(coroutine)
    loop = asyncio.new_event_loop()
    # The run's task exists before its thread starts, so a Ctrl-C that comes while the
    # thread is still starting cancels it too; the caller waits for the cancelled run.
    run = loop.create_task(coroutine)
    outcome: list[Any] = []
    ended = threading.Event()

    def in_thread() -> None:
        try:
            outcome.append((True, _run_on(loop, run)))
        except BaseException as error:  # handed to the caller's thread
            outcome.append((False, error))
        finally:
            ended.set()

    thread = threading.Thread(target=in_thread, name="run_loop")
    try:
        # Ctrl-C held back while the thread starts (a signal mask, not on Windows): taken
        # inside start() it would leave a thread not known to be running.
        with _sigint_held():
            thread.start()
        # An event, not join(): a join() interrupted by Ctrl-C may count the thread as
        # ended already (CPython 3.11), and the second would not wait.
        ended.wait()
    except BaseException:
        with contextlib.suppress(RuntimeError):  # it ended and closed its loop meanwhile
            loop.call_soon_threadsafe(run.cancel)
        # Started (its ident is set before start() returns) even when the Ctrl-C held back
        # was raised as the mask was lifted, before the next line: wait for the cancelled run.
        if thread.ident is not None:
            ended.wait()
        raise
    ok, value = outcome[0]
    if not ok:
        raise value
    return value


@contextlib.contextmanager
def _sigint_held() -> Iterator[None]:
    """SIGINT blocked in this thread for the block; a Ctrl-C meanwhile is taken after it."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def _run_on(loop: asyncio.AbstractEventLoop, run: asyncio.Task[T]) -> T:
    """``run`` to its end on ``loop`` in this thread, cleaned up and closed as by ``asyncio.run``."""
    asyncio.set_event_loop(loop)
    try:
        return loop.run_until_complete(run)
    finally:
        try:
            _cancel_all(loop)
            left = asyncio.all_tasks(loop)
            if left:
                loop.run_until_complete(asyncio.gather(*left, return_exceptions=True))
            loop.run_until_complete(loop.shutdown_asyncgens())
            loop.run_until_complete(loop.shutdown_default_executor())
        finally:
            asyncio.set_event_loop(None)
            loop.close()


def _cancel_all(loop: asyncio.AbstractEventLoop) -> None:
    for task in asyncio.all_tasks(loop):
        task.cancel()


@functools.lru_cache(maxsize=16)
def _family(host: str) -> socket.AddressFamily:
    """The socket family of ``host``; refused unless it is a loopback address (checked once per host)."""
    address = ipaddress.ip_address(host)
    if not address.is_loopback:
        raise ValueError(f"the load test sends to loopback addresses only, not {host}")
    return socket.AF_INET6 if address.version == 6 else socket.AF_INET


async def request(
    port: int,
    method: str,
    path: str,
    *,
    form: dict[str, str] | None = None,
    headers: dict[str, str] | None = None,
    timeout: float = 15.0,
    host: str = LOOPBACK,
    content: bytes | None = None,
) -> Response:
    """Send one request to ``host`` (a loopback address) at ``port`` and read the whole answer (Connection: close).

    ``form``: URL-encoded fields; ``content``: raw bytes as the body (a file). No answer
    within ``timeout`` seconds (connecting included) raises TimeoutError.
    """
    family = _family(host)
    body = urllib.parse.urlencode(form).encode() if form is not None else content or b""
    lines = [f"{method} {path} HTTP/1.1", f"Host: {host}:{port}", "Connection: close"]
    for name, value in (headers or {}).items():
        lines.append(f"{name}: {value}")
    if form is not None:
        lines += ["Content-Type: application/x-www-form-urlencoded", f"Content-Length: {len(body)}"]
    elif content is not None:  # a file as the body (the hosts' publication)
        lines += ["Content-Type: application/octet-stream", f"Content-Length: {len(body)}"]
    raw = ("\r\n".join(lines) + "\r\n\r\n").encode() + body
    loop = asyncio.get_running_loop()
    if isinstance(loop, BaseSelectorEventLoop):
        exchange = _Exchange(loop, family, (host, port), raw, timeout)
        try:
            answer = await exchange.done
        finally:
            exchange.close()  # also when the caller is cancelled
    else:
        async with asyncio.timeout(timeout):
            answer = await _portable_exchange(loop, family, (host, port), raw)
    return Response(*parse(answer))


class _Exchange:
    """One request on a selector loop: connect, send, read to the server's close; ``done`` holds the answer.

    A timer fails it with TimeoutError after ``timeout`` seconds. The socket is
    watched only while there is something to wait for (writable while the request
    does not fit, readable until the end).
    """

    __slots__ = ("chunks", "done", "fd", "loop", "raw", "reading", "sock", "timer", "writing")

    def __init__(self, loop: asyncio.AbstractEventLoop, family: int, address: tuple, raw: bytes, timeout: float):
        self.loop, self.raw, self.chunks = loop, raw, []
        self.reading = self.writing = False
        self.done = loop.create_future()
        self.sock: socket.socket | None = socket.socket(family, socket.SOCK_STREAM)
        self.sock.setblocking(False)
        if WAKE_AT:
            with contextlib.suppress(OSError):  # not every system lets it be set (Windows)
                self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVLOWAT, WAKE_AT)
        self.fd = self.sock.fileno()
        self.timer = loop.call_later(timeout, self._timed_out)
        error = self.sock.connect_ex(address)
        if error in _UNDER_WAY:
            # On loopback the handshake is done by now; if not, send() waits for it (EAGAIN).
            self._send()
        else:
            self._fail(OSError(error, os.strerror(error)))

    def _send(self, connected: bool = False) -> None:
        try:
            sent = self.sock.send(self.raw)
        except (BlockingIOError, InterruptedError):
            sent = 0
        except OSError as error:  # refused, reset; ENOTCONN: BSD's "still connecting"
            if connected or error.errno != errno.ENOTCONN:
                self._fail(error)
                return
            sent = 0
        if sent:
            self.raw = self.raw[sent:]
        if self.raw:
            if not self.writing:
                self.writing = True
                self.loop.add_writer(self.fd, self._writable)
            return
        self.reading = True
        self.loop.add_reader(self.fd, self._read)
        if self.writing:
            self.writing = False
            self.loop.remove_writer(self.fd)

    def _writable(self) -> None:
        error = self.sock.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR)
        if error:  # the connection failed (refused) while under way
            self._fail(OSError(error, os.strerror(error)))
        else:
            self._send(connected=True)

    def _read(self) -> None:
        recv, chunks = self.sock.recv, self.chunks
        while True:  # what is there, and the close too if it came with it: one wake-up less
            try:
                data = recv(READ_SIZE)
            except (BlockingIOError, InterruptedError):
                return
            except OSError as error:
                self._fail(error)
                return
            if not data:
                break
            chunks.append(data)
        self.close()
        if not self.done.done():
            self.done.set_result(b"".join(chunks))

    def _timed_out(self) -> None:
        self._fail(TimeoutError())

    def _fail(self, error: BaseException) -> None:
        self.close()
        if not self.done.done():
            self.done.set_exception(error)

    def close(self) -> None:
        """Stop watching the socket, close it and the timer (again: nothing)."""
        if self.sock is None:
            return
        self.timer.cancel()
        if self.reading:
            self.loop.remove_reader(self.fd)
        if self.writing:
            self.loop.remove_writer(self.fd)
        self.sock.close()
        self.sock = None


async def _portable_exchange(loop: asyncio.AbstractEventLoop, family: int, address: tuple, raw: bytes) -> bytes:
    """The same exchange with the loop's socket methods, for loops without reader callbacks (proactor)."""
    with socket.socket(family, socket.SOCK_STREAM) as sock:
        sock.setblocking(False)
        await loop.sock_connect(sock, address)
        await loop.sock_sendall(sock, raw)
        chunks = []
        while data := await loop.sock_recv(sock, READ_SIZE):
            chunks.append(data)
        return b"".join(chunks)


def parse(data: bytes) -> tuple[int, dict[str, str], bytes]:
    """Status, headers (lower-case names; repeated ones joined) and body of a raw answer.

    A connection closed without a status line (a server that dropped it: a full backlog,
    a restart) raises ConnectionError, an OSError: the load test counts it as a failed
    request and a phone sends again, as a real one would."""
    head, _, content = data.partition(b"\r\n\r\n")
    status_line, *header_lines = head.decode("latin-1").split("\r\n")
    fields = status_line.split()
    if len(fields) < 2 or not fields[1].isdigit():
        raise ConnectionError(f"no HTTP answer, only {len(data)} bytes: {data[:40]!r}")
    parsed: dict[str, str] = {}
    for line in header_lines:
        name, _, value = line.partition(":")
        key, value = name.strip().lower(), value.strip()
        parsed[key] = f"{parsed[key]}, {value}" if key in parsed else value
    return int(fields[1]), parsed, content


async def abandon(port: int, path: str, form: dict[str, str], headers: dict[str, str], after: float) -> None:
    """Send a POST and stop waiting after ``after`` seconds: the phone's timeout, the server goes on."""
    with contextlib.suppress(TimeoutError, OSError):
        await request(port, "POST", path, form=form, headers=headers, timeout=after)
