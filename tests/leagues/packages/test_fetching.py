"""The package fetch: an overall deadline; a host token reads its own league only."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests import factories

pytestmark = pytest.mark.django_db


def test_the_package_fetch_has_a_deadline_not_only_a_socket_timeout(settings, monkeypatch):
    """leagues.packages.fetching.fetch: ``timeout`` bounds each socket read, not the answer: a server
    trickling a byte just under the timeout holds the import's worker for as long as it likes.

    The fetch's clock is a fake one that moves 1 s each time it is read, and the server sends
    the next byte only when it was read (an event, no sleeping): the fetch must give up once
    its 30 s have passed on that clock, long before the server's 100 bytes are sent. Without
    the deadline it reads all 100 and returns them."""
    import threading
    import types
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    from leagues.packages import fetching

    ticked = threading.Event()
    clock = {"now": 1000.0, "reads": 0}
    sent = []

    def monotonic() -> float:
        clock["now"] += 1.0
        clock["reads"] += 1
        ticked.set()
        return clock["now"]

    class Trickle(BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.end_headers()
            self.wfile.flush()
            try:
                for _ in range(100):
                    if not ticked.wait(10):  # bounds a hang only
                        return
                    ticked.clear()
                    self.wfile.write(b" ")
                    self.wfile.flush()
                    sent.append(1)
            except OSError:
                pass

        def log_message(self, *args):
            pass

    monkeypatch.setattr(fetching, "time", types.SimpleNamespace(monotonic=monotonic))
    server = ThreadingHTTPServer(("127.0.0.1", 0), Trickle)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    settings.SKAT_LEAGUE_SERVERS = [f"http://127.0.0.1:{server.server_port}"]
    try:
        with pytest.raises(fetching.NoConnection, match="took too long"):
            fetching.fetch(f"http://127.0.0.1:{server.server_port}/", "t", timeout=30)
    finally:
        ticked.set()
        server.shutdown()
        server.server_close()
    # The deadline read at 1001 s is 1031 s; the read at 1032 s gives up: 32 readings of the
    # clock, of which 30 in the loop let a byte through before it (the first sets the deadline).
    assert clock["reads"] == 32
    assert len(sent) < 100


def test_a_host_token_of_one_league_reads_nothing_of_another(client):
    """Checked, holds: league B's key with league A's host token is a 404 naming nothing of B."""
    import datetime

    from leagues.lineups import create_match_day
    from leagues.publication import new_host
    from tests.leagues.packages.helpers import server_world

    _a, _host_a, token_a, _day_a, _ = server_world(name="Liga A")
    _b, group_b, teams_b = factories.league_group(name="Liga B", series_per_matchday=2, rounds_per_series=1)
    host_b, _token_b = new_host(_b, "SC Herz Dame")
    day_b = create_match_day(group_b, number=1, date=datetime.date(2026, 9, 5), teams=teams_b, host=host_b)
    headers = {"Authorization": f"Token {token_a}"}
    answer = client.get(reverse("packages:api_package") + f"?matchday={day_b.key}", headers=headers)
    assert answer.status_code == 404 and "Liga B" not in answer.content.decode()
    assert day_b.key not in client.get(reverse("packages:api_package"), headers=headers).content.decode()
