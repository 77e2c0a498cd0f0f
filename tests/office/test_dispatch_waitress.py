"""office.dispatch under waitress itself: a connection's requests one after another.

waitress queues the channel (the connection) as the task, and queues it again for the next
of its pipelined requests from inside ``service()``, before the thread that served the
first one is done with it: what the dispatcher counted must be what it takes back.
"""

from __future__ import annotations

import socket
import threading
import time

import pytest
from waitress import wasyncore
from waitress.server import create_server

from office.dispatch import EntriesFirst


def app(environ, start_response):
    body = environ["PATH_INFO"].encode()
    start_response("200 OK", [("Content-Type", "text/plain"), ("Content-Length", str(len(body)))])
    return [body]


@pytest.fixture
def served():
    """A waitress server on loopback with EntriesFirst(others=1) and two threads."""
    dispatcher = EntriesFirst(others=1)
    dispatcher.set_thread_count(2)  # as office.serve does: waitress starts none for a dispatcher given
    server = create_server(app, _dispatcher=dispatcher, host="127.0.0.1", port=0, threads=2)
    stop = threading.Event()

    def loop():
        while not stop.is_set():
            wasyncore.loop(timeout=0.05, map=server._map, count=1)
        wasyncore.close_all(server._map)

    looping = threading.Thread(target=loop, daemon=True)
    looping.start()
    try:
        yield dispatcher, server.effective_port
    finally:
        stop.set()
        looping.join(5)
        dispatcher.shutdown(cancel_pending=True, timeout=5)


def ask(port: int, *requests: str) -> bytes:
    """Send the requests on one connection at once (pipelined), the last asking to close
    it; everything answered until it is closed."""
    last = requests[-1].replace("\r\n\r\n", "\r\nConnection: close\r\n\r\n")
    with socket.create_connection(("127.0.0.1", port), timeout=5) as conn:
        conn.sendall("".join((*requests[:-1], last)).encode())
        seen = b""
        while chunk := conn.recv(65536):
            seen += chunk
        return seen


def request(command: str, path: str) -> str:
    return f"{command} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\n\r\n"


def settled(dispatcher: EntriesFirst) -> int:
    """others_running once every thread is idle again: a thread counts itself idle
    (active_count) only after its ``finally`` gave its place back, under the same lock."""
    deadline = time.monotonic() + 30  # bounds a hang only: returns as soon as they are idle
    while time.monotonic() < deadline:
        with dispatcher.lock:
            if not dispatcher.queue and not dispatcher.active_count:
                return dispatcher.others_running
        time.sleep(0.01)
    raise AssertionError("the threads are not idle within 30 s")


@pytest.mark.parametrize(
    "pipelined",
    [
        (request("GET", "/t/1/"), request("POST", "/s/token-2/")),  # an other, then an entry
        (request("POST", "/s/token-2/"), request("GET", "/t/1/")),  # an entry, then an other
        (request("GET", "/t/1/"), request("GET", "/p/1/"), request("GET", "/t/2/"), request("GET", "/static/x.css")),
    ],
)
def test_a_pipelined_connection_gives_back_every_place_it_took(served, pipelined):
    dispatcher, port = served
    answers = ask(port, *pipelined)
    assert answers.count(b"HTTP/1.1 200 OK") == len(pipelined)
    assert settled(dispatcher) == 0


def test_the_director_is_still_served_after_phones_pipelined_their_entries(served):
    """With the place of an other never given back, ``others`` such connections leave the
    process serving no director's page, no table link's page again."""
    _dispatcher, port = served
    for _ in range(3):
        ask(port, request("GET", "/s/token-1/"), request("POST", "/s/token-1/"))
    assert ask(port, request("GET", "/t/1/")).endswith(b"/t/1/")
