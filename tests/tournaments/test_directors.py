"""tournaments.services: a tournament's directors — named, taken out, never none."""

from __future__ import annotations

import pytest

from tests import factories
from tests.threads import in_parallel
from tournaments import services

pytestmark = pytest.mark.django_db


def test_a_director_named_directs_the_tournament():
    t = factories.tournament(directors=[factories.user("boss")])
    anna = factories.user("anna")
    services.add_director(t, anna)
    assert t.is_director(anna)


def test_naming_a_director_twice_changes_nothing():
    boss = factories.user("boss")
    t = factories.tournament(directors=[boss])
    services.add_director(t, boss)
    assert list(t.directors.all()) == [boss]


def test_a_director_taken_out_directs_no_more():
    boss, anna = factories.user("boss"), factories.user("anna")
    t = factories.tournament(directors=[boss, anna])
    services.remove_director(t, anna)
    assert not t.is_director(anna) and t.is_director(boss)


def test_the_last_director_stays():
    boss = factories.user("boss")
    t = factories.tournament(directors=[boss])
    with pytest.raises(services.LastDirector):
        services.remove_director(t, boss)
    assert list(t.directors.all()) == [boss]


def test_taking_out_a_director_leaves_other_tournaments_alone():
    boss, anna = factories.user("boss"), factories.user("anna")
    t = factories.tournament(directors=[boss, anna])
    other = factories.tournament(directors=[anna])
    services.remove_director(t, anna)
    assert other.is_director(anna)


@pytest.mark.django_db(transaction=True)
def test_two_directors_removing_each_other_at_once_leave_one():
    """The tournament's row is locked before the count: the second removal sees the first
    (meaningful on PostgreSQL; SQLite runs the two transactions one after the other)."""
    boss, anna = factories.user("boss"), factories.user("anna")
    t = factories.tournament(directors=[boss, anna])

    def remove(index: int) -> str:
        try:
            services.remove_director(t, (boss, anna)[index])
        except services.LastDirector:
            return "refused"
        return "removed"

    assert sorted(in_parallel(remove, 2)) == ["refused", "removed"]
    assert t.directors.count() == 1
