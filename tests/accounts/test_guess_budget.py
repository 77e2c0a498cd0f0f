"""What the login throttle leaves a guesser, measured over a simulated hour (the security
page's numbers, with the default limits): a wrong password every few seconds, faster than
the limit allows, the clock given to accounts.throttle.begin_attempt (nothing waits for
real time)."""

from __future__ import annotations

import pytest

from accounts import throttle

pytestmark = pytest.mark.django_db

HOUR = 3600


def admitted(target, every: int = 30, device: str | None = None) -> int:
    """Guesses that reach the password check in an hour, one tried every ``every`` seconds;
    ``target(i)`` gives the (username, address) of the i-th."""
    count = 0
    for i in range(HOUR // every):
        username, address = target(i)
        attempt = throttle.begin_attempt(username, address, now=1_000_000.0 + i * every, device=device)
        if not attempt.wait:
            attempt.failed()
            count += 1
    return count


def test_one_account_gets_20_guesses_an_hour_from_any_number_of_addresses():
    assert admitted(lambda i: ("director", f"10.{i // 250}.{i % 250}.1")) == 20


def test_one_address_gets_80_guesses_an_hour_over_many_accounts():
    assert admitted(lambda i: (f"user{i}", "10.30.0.1")) == 80


def test_one_ipv6_device_rotating_through_its_64_gets_400_an_hour_over_many_accounts():
    assert admitted(lambda i: (f"user{i}", f"2001:db8:30::{i:x}"), every=8) == 400


def test_a_trusted_browser_gets_20_an_hour_against_its_own_cookie_only():
    assert admitted(lambda i: ("director", "10.31.0.1"), device="nonce") == 20
    assert throttle.locked_for("director", "10.31.0.2", now=1_000_000.0 + HOUR - 30) == 0  # untrusted: open
