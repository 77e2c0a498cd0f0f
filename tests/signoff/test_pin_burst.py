"""A burst of wrong PINs at once (5.5.3 sign-off): the lock after PIN_ATTEMPTS holds.

Real threads with their own database connections, on SQLite and PostgreSQL. Each wrong
PIN is counted before the table's lock is released, so the guesses queued behind it
see every earlier one and no more than PIN_ATTEMPTS PINs are ever checked.
"""

from __future__ import annotations

import pytest

from signoff import confirm as signoff
from signoff.models import PinFailure
from signoff.pins import seat_pin
from tests.referees.helpers import full_table
from tests.threads import in_parallel

pytestmark = pytest.mark.django_db(transaction=True)

GUESSES = 12


def test_a_burst_of_wrong_pins_gets_no_more_than_the_allowed_checks(monkeypatch):
    table = full_table(3)
    wrong = f"{(int(seat_pin(table, 1)) + 1) % 10_000:04d}"
    checked = []
    check = signoff.pin_matches

    def counted(*args, **kwargs):
        checked.append(1)  # list.append is atomic: a count across threads
        return check(*args, **kwargs)

    monkeypatch.setattr(signoff, "pin_matches", counted)

    def guess(_index: int) -> str:
        try:
            signoff.confirm_seat(table, 1, wrong)
        except signoff.SignOffRefused as refused:
            return str(refused)
        return "confirmed"

    answers = in_parallel(guess, GUESSES)

    assert all(isinstance(answer, str) for answer in answers), answers
    assert len(checked) == signoff.PIN_ATTEMPTS
    assert PinFailure.objects.filter(table=table).count() == signoff.PIN_ATTEMPTS
    assert sum("Wrong PIN for" in answer for answer in answers) == signoff.PIN_ATTEMPTS - 1
    assert sum("locked until" in answer for answer in answers) == GUESSES - signoff.PIN_ATTEMPTS + 1
    # The right PIN is refused too while the lock lasts.
    with pytest.raises(signoff.SignOffRefused, match="locked until"):
        signoff.confirm_seat(table, 1, seat_pin(table, 1))
