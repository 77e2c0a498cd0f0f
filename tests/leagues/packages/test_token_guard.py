"""The host-token endpoints' guess limit (leagues.publication.host_of_request, accounts.guesses), read as a spec.

- Every unknown token a client sends to ``/league/api/package/`` or ``/league/api/publish/``
  is a failure of that client (its address; an IPv6 one by its /64); a request without a
  token, a right token and a refusal count nothing.
- At LEAGUE_TOKEN_FAILURE_LIMIT failures within LEAGUE_TOKEN_WINDOW the client is answered
  429 with Retry-After and a message naming Authorization and the rule, the right token
  too, on both endpoints, until the oldest failure has left the window.
- Another client's right token is never refused.
- Failures sent at the same moment (several server processes, threads) are all counted.
"""

from __future__ import annotations

import time

import pytest
from django.test import Client

from accounts import guesses
from leagues.publication import _token_guesses
from tests.leagues.packages.helpers import server_world
from tests.threads import in_parallel

pytestmark = pytest.mark.django_db

PACKAGE = "/league/api/package/"
PUBLISH = "/league/api/publish/"


@pytest.fixture
def token(settings):
    """The host's right token; the limit at 3 in 600 s. (The failures are rows of the test's
    database: none of another test's is counted.)"""
    settings.LEAGUE_TOKEN_FAILURE_LIMIT = 3
    settings.LEAGUE_TOKEN_WINDOW = 600
    return server_world()[2]


def _get(client, token: str | None, address: str):
    headers = {"Authorization": f"Token {token}"} if token else {}
    return client.get(PACKAGE, headers=headers, REMOTE_ADDR=address)


def _post(client, token: str, address: str):
    headers = {"Authorization": f"Token {token}"}
    return client.post(PUBLISH, b"", content_type="application/octet-stream", headers=headers, REMOTE_ADDR=address)


def test_too_many_unknown_tokens_lock_that_client_only(client, token):
    assert _get(client, "guess-1", "127.0.0.41").status_code == 401
    assert _post(client, "guess-2", "127.0.0.41").status_code == 401
    assert _get(client, "guess-3", "127.0.0.41").status_code == 401
    refused = _get(client, token, "127.0.0.41")
    assert refused.status_code == 429
    assert 590 <= int(refused["Retry-After"]) <= 600
    error = refused.json()["error"]
    assert error.startswith("Authorization: too many unknown tokens from this address")
    assert "at most 3 within 600 s" in error
    assert _post(client, token, "127.0.0.41").status_code == 429  # both endpoints, one count
    assert _get(client, token, "127.0.0.42").status_code == 200  # another client's right token
    assert _post(client, token, "127.0.0.42").status_code == 400  # past the token: "file: empty"


def test_no_token_a_right_token_and_a_refusal_count_nothing(client, token):
    for _ in range(5):
        assert _get(client, None, "127.0.0.43").status_code == 401
        assert _get(client, token, "127.0.0.43").status_code == 200
    assert _get(client, "guess", "127.0.0.43").status_code == 401
    assert _get(client, "guess", "127.0.0.43").status_code == 401
    assert _get(client, token, "127.0.0.43").status_code == 200
    assert _get(client, "guess", "127.0.0.43").status_code == 401
    assert _get(client, "guess", "127.0.0.43").status_code == 429
    assert _get(client, "guess", "127.0.0.43").status_code == 429  # not counted
    assert _token_guesses().failures(_get(client, None, "127.0.0.43").wsgi_request) == 3


def test_the_lock_ends_when_the_oldest_failure_leaves_the_window(client, token, monkeypatch):
    for _ in range(3):
        _get(client, "guess", "127.0.0.44")
    assert _get(client, token, "127.0.0.44").status_code == 429
    later = time.time() + 601
    monkeypatch.setattr(guesses, "_now", lambda: later)
    assert _get(client, token, "127.0.0.44").status_code == 200


def test_an_ipv6_client_counts_by_its_64(client, token):
    for address in ("2001:db8:5:1::1", "2001:db8:5:1::2", "2001:db8:5:1:abcd::3"):
        assert _get(client, "guess", address).status_code == 401
    assert _get(client, token, "2001:db8:5:1:ffff::99").status_code == 429
    assert _get(client, token, "2001:db8:5:2::1").status_code == 200


GUESSES = 12


@pytest.mark.django_db(transaction=True)
def test_parallel_unknown_tokens_are_all_counted(token, settings):
    """A client guessing in parallel (the server's processes and threads answering at once)
    loses none of its failures: each is counted, so the limit holds however it is sent."""
    settings.LEAGUE_TOKEN_FAILURE_LIMIT = 100
    answers = in_parallel(lambda i: _get(Client(), f"guess-{i}", "127.0.0.45").status_code, GUESSES)
    assert answers == [401] * GUESSES
    assert _token_guesses().failures(_get(Client(), None, "127.0.0.45").wsgi_request) == GUESSES
    settings.LEAGUE_TOKEN_FAILURE_LIMIT = GUESSES
    assert _get(Client(), token, "127.0.0.45").status_code == 429
    assert _get(Client(), token, "127.0.0.46").status_code == 200


def test_expired_failures_are_pruned_a_bounded_batch_at_a_time(client, token, monkeypatch):
    from accounts.models import GuessFailure

    monkeypatch.setattr(guesses, "PRUNE_BATCH", 2)
    for _ in range(3):
        _get(client, "guess", "127.0.0.47")
    later = time.time() + 601
    monkeypatch.setattr(guesses, "_now", lambda: later)
    _get(client, "guess", "127.0.0.48")  # 3 expired: 2 of them go
    assert GuessFailure.objects.count() == 2
    _get(client, "guess", "127.0.0.48")
    assert GuessFailure.objects.count() == 2  # the last expired one gone, 127.0.0.48's two
