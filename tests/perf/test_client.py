"""The load test's HTTP client (perf.client) against real servers on loopback, in the test's own loop.

Each path it has is run: an answer with Content-Length and one the server ends by
closing, in pieces and larger than one read; a request larger than the socket takes at
once; a timeout (nothing answers, or the handshake never completes); a refused
connection; a caller that gives up; and the portable path other loops (Windows'
proactor) take. The servers record what they received, so the request is checked too.
"""

from __future__ import annotations

import asyncio
import errno
import gc
import signal
import socket
import struct
import threading
import weakref

import pytest

from perf import client


def run(coroutine):
    return client.run_loop(coroutine)


def where_a_loop_runs(call):
    """``call()`` made where an event loop runs in this thread: Playwright's when a browser
    test ran before in this worker (asyncio.run and run_until_complete refuse then), else
    one of its own (run_until_complete: no Ctrl-C handler of asyncio.run's, as Playwright's)."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        pass
    else:
        return call()

    async def caller():
        return call()

    loop = asyncio.new_event_loop()
    try:
        return loop.run_until_complete(caller())
    finally:
        loop.close()


def test_run_loop_runs_a_coroutine_where_a_loop_runs_already():
    """Inside a running loop (Playwright's, after a browser test) asyncio.run refuses to start."""

    async def answer() -> int:
        await asyncio.sleep(0)
        return 42

    assert client.run_loop(answer()) == 42
    assert where_a_loop_runs(lambda: client.run_loop(answer())) == 42


def test_run_loop_keeps_nothing_of_a_run():
    """A run's result is its caller's alone: run_loop keeps no coroutine nor result (it is no cache)."""

    class Result:
        pass

    async def result() -> Result:
        return Result()

    kept = weakref.ref(client.run_loop(result()))
    gc.collect()
    assert kept() is None


def test_the_loopback_check_is_made_once_per_host(monkeypatch):
    """Every request asks for its host's socket family: the address is parsed once per host, not per request."""
    parsed = []
    real = client.ipaddress.ip_address
    monkeypatch.setattr(client.ipaddress, "ip_address", lambda host: parsed.append(host) or real(host))
    assert client._family("127.0.0.77") == client._family("127.0.0.77") == socket.AF_INET
    assert parsed == ["127.0.0.77"]


@pytest.mark.skipif(threading.current_thread() is not threading.main_thread(), reason="signals reach the main thread")
def ctrl_c_in_a_thread_of_its_own() -> None:
    """The check below, in the process it is given: raises AssertionError when it fails."""
    stopped = []
    running = threading.Event()

    async def long_run() -> None:
        running.set()
        try:
            await asyncio.Event().wait()  # never ends by itself: only Ctrl-C stops it
        except asyncio.CancelledError:
            stopped.append(True)
            raise

    def press_ctrl_c() -> None:
        running.wait()  # once the run is under way, however slow the machine (the caller's timeout bounds a hang)
        signal.pthread_kill(threading.main_thread().ident, signal.SIGINT)

    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    ctrl_c = threading.Thread(target=press_ctrl_c, daemon=True)
    try:
        ctrl_c.start()
        with pytest.raises(KeyboardInterrupt):
            where_a_loop_runs(lambda: client.run_loop(long_run()))
    finally:
        if running.is_set():  # else the run never began: nothing is sent, the daemon thread is left
            ctrl_c.join()
        signal.signal(signal.SIGINT, before)
    # Cancelled while it ran, and waited for: a run left going would leave nothing here
    # (and one Ctrl-C did not stop would hang until the caller's timeout).
    assert stopped == [True]


def test_ctrl_c_stops_a_run_in_a_thread_of_its_own_at_once():
    """Where a loop runs already (Playwright's in a test, a notebook's) the run has a thread of its own:
    Ctrl-C, raised in the caller's thread, stops it at once, as asyncio.run's own; not when it ends by itself.

    In a fresh interpreter: a signal goes to the whole process, and what earlier tests of a
    worker left (a browser test's loop, its handlers and wake-up descriptor) must not decide it."""
    import subprocess
    import sys

    script = "from tests.perf.test_client import ctrl_c_in_a_thread_of_its_own as check; check(); print('stopped')"
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout.strip() == "stopped", done.stdout + done.stderr


@pytest.fixture(params=["selector", "portable"])
def path(request, monkeypatch) -> str:
    """Each test on the selector loop's callbacks and on the loop's portable socket methods."""
    if request.param == "portable":

        class NoLoop:  # no loop is one: every loop takes the portable path
            pass

        monkeypatch.setattr(client, "BaseSelectorEventLoop", NoLoop)
    return request.param


@pytest.fixture
def opened(monkeypatch) -> list[tuple[socket.socket, int]]:
    """The sockets of the client's exchanges (selector path), each with its file descriptor."""
    sockets = []
    start = client._Exchange.__init__

    def recorded(self, *args):
        start(self, *args)
        sockets.append((self.sock, self.fd))

    monkeypatch.setattr(client._Exchange, "__init__", recorded)
    return sockets


def let_go(opened: list[tuple[socket.socket, int]], loop: asyncio.AbstractEventLoop) -> bool:
    """Every socket the client opened is closed and no longer watched by the loop."""
    watched = loop._selector.get_map()  # what the loop waits on
    return all(sock.fileno() == -1 and fd not in watched for sock, fd in opened)


async def serve(handler, host: str = client.HALL) -> tuple[asyncio.Server, int]:
    """A server on a loopback address (the hall's unless told) at a free port, in this loop."""
    server = await asyncio.start_server(handler, host, 0)
    return server, server.sockets[0].getsockname()[1]


async def get_from(handler) -> client.Response:
    """GET / from a server on the hall address answering with ``handler``."""
    server, port = await serve(handler)
    async with server:
        return await client.request(port, "GET", "/", host=client.HALL)


async def read_request(reader: asyncio.StreamReader) -> tuple[bytes, bytes]:
    """The request's head and its body (by its Content-Length)."""
    head = await reader.readuntil(b"\r\n\r\n")
    length = next(
        (int(line.split(b":")[1]) for line in head.split(b"\r\n") if line.lower().startswith(b"content-length:")), 0
    )
    return head, await reader.readexactly(length)


def test_an_answer_with_content_length_status_headers_and_body(path):
    received = []

    async def answer(reader, writer):
        received.append(await read_request(reader))
        writer.write(
            b"HTTP/1.1 201 Created\r\nContent-Length: 5\r\nSet-Cookie: a=1\r\nX-Odd:  spaced  \r\n"
            b'set-cookie: csrftoken=x; Path=/\r\nETag: "v1"\r\n\r\nhello'
        )
        await writer.drain()
        writer.close()

    async def main():
        server, port = await serve(answer)
        async with server:
            return await client.request(
                port, "POST", "/t/1/", form={"number": "3", "note": "ä b&c"}, headers={"HX-Request": "true"},
                host=client.HALL,
            )  # fmt: skip

    response = run(main())
    assert response.status == 201 and response.body == b"hello"
    assert response.headers == {
        "content-length": "5",
        "set-cookie": "a=1, csrftoken=x; Path=/",  # repeated: joined, in order
        "x-odd": "spaced",
        "etag": '"v1"',
    }
    head, body = received[0]
    lines = head.decode().split("\r\n")
    assert lines[0] == "POST /t/1/ HTTP/1.1"
    assert f"Host: {client.HALL}:" in head.decode() and "Connection: close" in lines and "HX-Request: true" in lines
    assert "Content-Type: application/x-www-form-urlencoded" in lines and f"Content-Length: {len(body)}" in lines
    assert body == b"number=3&note=%C3%A4+b%26c"


def test_an_answer_the_server_ends_by_closing_in_pieces_larger_than_one_read(path):
    """No Content-Length: the body is all that came before the close (pieces of 100 KB, more than
    the client's wake-up mark and than one read)."""
    piece = bytes(range(256)) * 400

    async def answer(reader, writer):
        await read_request(reader)
        writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n")
        for _ in range(5):
            writer.write(piece)
            await writer.drain()
        writer.close()

    async def main():
        server, port = await serve(answer)
        async with server:
            return await client.request(port, "GET", "/standings/", host=client.HALL)

    response = run(main())
    assert response.status == 200 and response.headers == {"content-type": "text/html"}
    assert response.body == piece * 5


def test_an_answer_whose_rest_comes_after_the_client_read_its_beginning(monkeypatch):
    """The client reads what came (more than its wake-up mark), finds no more yet, and waits for the rest."""
    first = b"HTTP/1.1 200 OK\r\n\r\n" + b"a" * 40_000
    reads = []
    read = client._Exchange._read
    began = asyncio.Event()  # bound to the loop on first use

    def counted(self):
        read(self)
        reads.append(len(self.chunks))
        began.set()

    monkeypatch.setattr(client._Exchange, "_read", counted)

    async def in_two_parts(reader, writer):
        await read_request(reader)
        writer.write(first)
        await writer.drain()
        await began.wait()  # the client read the beginning: the rest comes after
        writer.write(b"the rest")
        writer.close()

    assert run(get_from(in_two_parts)).body == b"a" * 40_000 + b"the rest"
    assert reads[0] >= 1 and len(reads) >= 2


def test_a_request_larger_than_the_socket_takes_at_once_is_sent_whole(path):
    content = bytes(range(256)) * 40_000  # 10 MB: the client waits for the socket to take more

    async def answer(reader, writer):
        _head, body = await read_request(reader)
        reply = str(len(body)).encode() + (b" same" if body == content else b" differs")
        writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n%s" % (len(reply), reply))
        await writer.drain()
        writer.close()

    async def main():
        server, port = await serve(answer)
        async with server:
            return await client.request(port, "POST", "/publish/", content=content, host=client.HALL)

    assert run(main()).body == f"{len(content)} same".encode()


def test_no_answer_within_the_timeout_raises_timeout_error_and_hangs_up(path):
    """The server goes on; the client stops waiting and closes its end (the server reads the end)."""
    hung_up = []
    both = asyncio.Event()

    async def never_answer(reader, writer):
        await read_request(reader)
        hung_up.append(await reader.read())  # b"": the client closed
        if len(hung_up) == 2:
            both.set()
        writer.close()

    async def main():
        server, port = await serve(never_answer, client.LOOPBACK)  # abandon sends to the table profile's address
        async with server:
            loop = asyncio.get_running_loop()
            started = loop.time()
            with pytest.raises(TimeoutError):
                await client.request(port, "GET", "/slow/", timeout=0.2)
            waited = loop.time() - started
            await client.abandon(port, "/slow/", {"number": "1"}, {}, after=0.05)  # gives up without raising
            await both.wait()
            return waited

    assert run(main()) >= 0.2
    assert hung_up == [b"", b""]


def test_a_handshake_that_never_completes_times_out(opened):
    """A listening socket whose queue is full drops the handshake: the request waits to send, then times out."""

    async def main():
        with socket.socket() as full:
            full.bind((client.HALL, 0))
            full.listen(0)
            port = full.getsockname()[1]
            with socket.create_connection((client.HALL, port)):  # the one the queue holds, never accepted
                with pytest.raises(TimeoutError):
                    await client.request(port, "GET", "/", timeout=0.3, host=client.HALL)
                return let_go(opened, asyncio.get_running_loop())

    assert run(main()) and len(opened) == 1


def test_a_refused_connection_raises_an_os_error(path):
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind((client.HALL, 0))
        port = probe.getsockname()[1]
    with pytest.raises(ConnectionRefusedError):
        run(client.request(port, "GET", "/", host=client.HALL))


def test_a_connection_the_server_resets_raises_an_os_error(path):
    """A reset after part of an answer (the server's process killed) is an error, not a short answer."""

    async def reset(reader, writer):
        await read_request(reader)
        writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\npart")
        await writer.drain()
        sock = writer.get_extra_info("socket")
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))  # close with RST
        writer.transport.abort()

    async def main():
        server, port = await serve(reset)
        async with server:
            await client.request(port, "GET", "/", host=client.HALL)

    with pytest.raises(ConnectionResetError):
        run(main())


def test_a_connection_that_fails_at_once_raises_its_error(monkeypatch):
    class Unreachable(socket.socket):
        def connect_ex(self, address):
            return errno.ENETUNREACH

    monkeypatch.setattr(client.socket, "socket", Unreachable)
    with pytest.raises(OSError) as raised:
        run(client.request(9, "GET", "/", host=client.HALL))
    assert raised.value.errno == errno.ENETUNREACH


@pytest.mark.parametrize("first_send", [BlockingIOError(), OSError(errno.ENOTCONN, "not connected")])
def test_a_connection_still_under_way_is_waited_for(monkeypatch, first_send):
    """Elsewhere than on Linux' loopback the handshake may still be under way when the client first
    sends (EAGAIN; BSD: ENOTCONN): it sends once the socket is writable, or reports the refusal."""

    class UnderWay(socket.socket):
        sends = 0

        def send(self, data, *args):
            UnderWay.sends += 1
            if UnderWay.sends == 1:
                raise first_send
            return super().send(data, *args)

    monkeypatch.setattr(client.socket, "socket", UnderWay)

    async def answer(reader, writer):
        await read_request(reader)
        writer.write(b"HTTP/1.1 204 No Content\r\n\r\n")
        writer.close()

    assert run(get_from(answer)).status == 204
    UnderWay.sends = 0
    with socket.socket() as probe:
        probe.bind((client.HALL, 0))
        port = probe.getsockname()[1]
    with pytest.raises(ConnectionRefusedError):
        run(client.request(port, "GET", "/", host=client.HALL))


def test_a_caller_that_gives_up_closes_the_connection(opened):
    async def main():
        hung_up = asyncio.Event()

        async def never_answer(reader, writer):
            await read_request(reader)
            await reader.read()
            hung_up.set()
            writer.close()

        server, port = await serve(never_answer)
        async with server:
            task = asyncio.create_task(client.request(port, "GET", "/", host=client.HALL))
            await asyncio.sleep(0)
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
            await hung_up.wait()
            return let_go(opened, asyncio.get_running_loop())

    assert run(main()) and len(opened) == 1


def test_only_loopback_addresses_are_sent_to():
    for host in ("192.168.1.10", "10.0.0.1", "2001:db8::1"):
        with pytest.raises(ValueError, match="loopback addresses only"):
            run(client.request(1, "GET", "/", host=host))


@pytest.mark.parametrize("data", [b"", b"garbage", b"HTTP/1.1\r\n\r\n"])
def test_an_answer_without_a_status_line_is_a_connection_error_the_load_test_counts(data):
    with pytest.raises(ConnectionError, match="no HTTP answer"):
        client.parse(data)
