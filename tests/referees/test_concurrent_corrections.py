"""Two referees saving a correction of the same game at the same moment: one wins, the
other is told (version check inside the row lock), never a silent overwrite.

Real threads with their own connections, on SQLite (the tests' file database, whose
IMMEDIATE transactions make the second writer wait) and on PostgreSQL (the row lock).
"""

from __future__ import annotations

import threading

import pytest
from django.db import connections

from referees import corrections
from referees.models import Correction
from skat.rules import RuleError
from tests import factories

from .helpers import full_table

pytestmark = pytest.mark.django_db(transaction=True)


def test_simultaneous_corrections_one_wins_one_is_refused():
    table = full_table(3)
    game = table.games.get(number=1)
    users = [factories.user("first"), factories.user("second")]
    barrier = threading.Barrier(2)
    results: list[object] = [None, None]

    def work(i: int, points: int) -> None:
        try:
            barrier.wait()
            results[i] = corrections.correct_game(
                game.pk, expected_version=1, changes={"declarer_points": points}, user=users[i], reason=f"r{i}"
            )
        except RuleError as error:
            results[i] = error
        finally:
            connections.close_all()

    threads = [threading.Thread(target=work, args=(i, p)) for i, p in enumerate((95, 65))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    errors = [r for r in results if isinstance(r, RuleError)]
    saved = [r for r in results if isinstance(r, Correction)]
    assert len(errors) == 1 and len(saved) == 1, results
    assert errors[0].field == "version"
    game.refresh_from_db()
    assert game.version == 2 and game.declarer_points == saved[0].after["declarer_points"]
    assert Correction.objects.count() == 1
