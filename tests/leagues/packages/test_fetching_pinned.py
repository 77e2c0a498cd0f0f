"""leagues.packages.fetching with no league server named: the request goes to the address that
was checked, never to an address an IPv6 one smuggles in, and a server's answer that is
no HTTP is "no connection", not a 500. Loopback only, no name looked up in the network
(the resolver and the connection are stood in for where a name is involved).
"""

from __future__ import annotations

import socket
import threading

import pytest

from leagues.packages import fetching
from leagues.packages.schema import PackageError


@pytest.mark.parametrize(
    ("url", "internet"),
    [
        ("https://[::127.0.0.1]/league/api/package/", False),  # IPv4-compatible: loopback
        ("https://[::192.168.1.1]/", False),
        ("https://[64:ff9b::192.168.1.1]/", False),  # NAT64 to the router
        ("https://[64:ff9b::127.0.0.1]/", False),
        ("https://[2002:c0a8:101::1]/", False),  # 6to4 of 192.168.1.1
        ("https://[64:ff9b::8.8.8.8]/league/api/package/", True),
        ("https://[2606:4700:4700::1111]/league/api/package/", True),
    ],
)
def test_an_ipv6_address_carrying_a_hall_address_is_refused(settings, url, internet):
    settings.SKAT_LEAGUE_SERVERS = []
    answer = fetching.refusal(url)
    assert (answer is None) == internet, answer
    assert answer is None or "is in this network or on this computer" in answer


def test_the_request_goes_to_the_address_checked_not_to_a_second_lookup(settings, monkeypatch):
    """DNS rebinding: the name is public when checked and the laptop a moment later."""
    settings.SKAT_LEAGUE_SERVERS = []
    answers = iter([["93.184.216.34", "93.184.216.35"]] + [["127.0.0.1"]] * 10)
    looked_up, connected = [], []

    def getaddrinfo(host, port, *args, **kwargs):
        looked_up.append(host)
        return [(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP, "", (ip, port)) for ip in next(answers)]

    def create_connection(address, *args, **kwargs):
        connected.append(address)
        raise ConnectionRefusedError("stood in: nothing leaves this test")

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    monkeypatch.setattr(socket, "create_connection", create_connection)
    with pytest.raises(fetching.NoConnection):
        fetching.fetch("https://liga.test/league/api/package/", "token", timeout=5)
    assert looked_up == ["liga.test"]
    assert connected == [("93.184.216.34", 443), ("93.184.216.35", 443)]  # each checked one, no other


@pytest.fixture
def not_http():
    """A loopback server answering every connection with a line that is no HTTP."""
    listener = socket.create_server(("127.0.0.1", 0))
    listener.settimeout(0.2)  # accept() wakes to see the test's end
    stop = threading.Event()

    def serve():
        while not stop.is_set():
            try:
                conn, _ = listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            with conn:
                conn.recv(4096)
                conn.sendall(b"HELLO THERE\r\n\r\n")

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{listener.getsockname()[1]}"
    stop.set()
    thread.join(5)
    listener.close()


def test_an_answer_that_is_no_http_is_no_connection(settings, not_http):
    settings.SKAT_LEAGUE_SERVERS = [not_http]
    with pytest.raises(PackageError, match=r"^url: no connection to "):
        fetching.fetch(f"{not_http}/league/api/package/", "token", timeout=5)


def test_an_entry_that_is_no_address_is_left_out_not_a_500(settings):
    settings.SKAT_LEAGUE_SERVERS = ["http://[::1", "http://127.0.0.1:8123"]
    assert fetching.refusal("http://127.0.0.1:8123/league/api/package/") is None
    assert "is none of the league servers" in fetching.refusal("http://127.0.0.2:8123/league/api/package/")
