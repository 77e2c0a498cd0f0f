"""The guess limit counts a guess before its secret is checked (accounts.guesses.GuessLimit.begin).

- Of any burst of wrong secrets from one client, at most the limit reach the check; the
  rest are refused (429) and leave no row, so a refusal never prolongs the lock.
- The right secret counts nothing; another client is never refused.
"""

from __future__ import annotations

import pytest
from django.test import Client, RequestFactory

from accounts.guesses import GuessLimit
from accounts.models import GuessFailure
from leagues import publication
from tests.leagues.packages.helpers import server_world
from tests.threads import in_parallel

PACKAGE = "/league/api/package/"
BURST = 40
LIMIT = 10


def _request(address: str):
    return RequestFactory().get("/", REMOTE_ADDR=address)


@pytest.mark.django_db
def test_a_guess_is_counted_before_it_is_checked_and_the_right_one_is_forgiven():
    limit = GuessLimit("test", 2, 600)
    first = limit.begin(_request("127.0.0.61"))
    assert first.wait is None and GuessFailure.objects.count() == 1  # counted while being checked
    first.right()
    assert GuessFailure.objects.count() == 0
    assert limit.begin(_request("127.0.0.61")).wait is None
    assert limit.begin(_request("127.0.0.61")).wait is None
    refused = limit.begin(_request("127.0.0.61"))
    assert refused.row_id is None and 590 <= refused.wait <= 600
    assert GuessFailure.objects.count() == 2  # the refusal left nothing
    assert limit.begin(_request("127.0.0.62")).wait is None  # another client


@pytest.mark.django_db(transaction=True)
def test_a_burst_of_wrong_host_tokens_gets_no_more_checks_than_the_limit(settings, monkeypatch):
    """40 wrong tokens sent at once from one address: at most 10 are checked (401), the rest
    refused (429), and the rows kept are the checked ones only."""
    settings.LEAGUE_TOKEN_FAILURE_LIMIT = LIMIT
    settings.LEAGUE_TOKEN_WINDOW = 600
    token = server_world()[2]
    checked = []
    real = publication.host_of

    def counting(given):
        checked.append(given)
        return real(given)

    monkeypatch.setattr(publication, "host_of", counting)
    headers = lambda i: {"Authorization": f"Token wrong-{i}"}  # noqa: E731
    answers = in_parallel(
        lambda i: Client().get(PACKAGE, headers=headers(i), REMOTE_ADDR="127.0.0.63").status_code, BURST
    )
    assert sorted(set(answers)) == [401, 429] or set(answers) == {429}
    assert answers.count(401) == len(checked) <= LIMIT
    assert GuessFailure.objects.filter(purpose="host-token").count() == len(checked)
    right = Client().get(PACKAGE, headers={"Authorization": f"Token {token}"}, REMOTE_ADDR="127.0.0.64")
    assert right.status_code == 200
