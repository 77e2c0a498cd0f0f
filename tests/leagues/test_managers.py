"""leagues.setup: a league's managers — named and taken out with the match days they
direct (match days are tournaments their managers direct), never none."""

from __future__ import annotations

import datetime

import pytest

from leagues import setup
from leagues.lineups import create_match_day
from leagues.models import League, MatchDay
from skat.rules import RuleError
from tests import factories
from tests.threads import in_parallel

pytestmark = pytest.mark.django_db


@pytest.fixture
def boss():
    return factories.user("boss")


@pytest.fixture
def league(boss):
    """A league of two match days (and, elsewhere, a league of another manager)."""
    league, group, teams = factories.league_group(teams=2, roster=4, managers=[boss])
    for number in (1, 2):
        create_match_day(group, number=number, date=datetime.date(2026, 9, number), teams=teams)
    _other, other_group, other_teams = factories.league_group(teams=2, roster=4, managers=[factories.user("else")])
    create_match_day(other_group, number=1, date=datetime.date(2026, 9, 1), teams=other_teams)
    return league


def directed(user, league: League) -> list[int]:
    """The numbers of the league's match days whose tournament ``user`` directs."""
    return sorted(
        MatchDay.objects.filter(group__league=league, tournament__directors=user).values_list("number", flat=True)
    )


def test_a_manager_named_directs_the_match_days_set_up_before(league, boss):
    anna = factories.user("anna")
    assert setup.add_manager(league, anna) == 2
    assert league.is_manager(anna) and directed(anna, league) == [1, 2]
    assert anna.directed_tournaments.count() == 2  # not the other league's


def test_a_match_day_set_up_afterwards_is_his_too(league):
    anna = factories.user("anna")
    setup.add_manager(league, anna)
    group = league.groups.get()
    create_match_day(group, number=3, date=datetime.date(2026, 9, 3), teams=list(group.teams.all()))
    assert directed(anna, league) == [1, 2, 3]


def test_naming_a_manager_twice_changes_nothing(league, boss):
    assert setup.add_manager(league, boss) == 2
    assert list(league.managers.all()) == [boss] and boss.directed_tournaments.count() == 2


def test_a_manager_taken_out_manages_and_directs_no_more(league, boss):
    anna = factories.user("anna")
    setup.add_manager(league, anna)
    setup.remove_manager(league, anna)
    assert not league.is_manager(anna) and anna.directed_tournaments.count() == 0
    assert directed(boss, league) == [1, 2]


def test_the_last_manager_stays(league, boss):
    with pytest.raises(RuleError) as refused:
        setup.remove_manager(league, boss)
    assert refused.value.field == "league managers"
    assert "boss is the last league manager of this league" in refused.value.message
    assert list(league.managers.all()) == [boss] and directed(boss, league) == [1, 2]


def test_a_match_day_he_alone_directed_gets_the_remaining_managers(league, boss):
    """A match day set up before a manager was named in the admin (no director of it then)."""
    anna = factories.user("anna")
    setup.add_manager(league, anna)
    day_one = league.groups.get().match_days.get(number=1).tournament
    day_one.directors.remove(boss)
    setup.remove_manager(league, anna)
    assert list(day_one.directors.all()) == [boss]


@pytest.mark.django_db(transaction=True)
def test_two_managers_removing_each_other_at_once_leave_one(boss):
    """The league's row is locked before the count (meaningful on PostgreSQL)."""
    league, _group, _teams = factories.league_group(teams=0, managers=[boss])
    anna = factories.user("anna")
    setup.add_manager(league, anna)

    def remove(index: int) -> str:
        try:
            setup.remove_manager(league, (boss, anna)[index])
        except RuleError:
            return "refused"
        return "removed"

    assert sorted(in_parallel(remove, 2)) == ["refused", "removed"]
    assert league.managers.count() == 1


@pytest.mark.django_db(transaction=True)
def test_a_match_day_keeps_a_director_while_managers_and_directors_change_at_once(boss):
    """A match day directed by a manager and the host's helper only: the manager is taken
    out of the league while the helper is taken off the match day, at the same moment
    (repeated with small offsets). The match day keeps a director every time (the other
    managers, as if set up now), because both lock its row (meaningful on PostgreSQL,
    where it lost both in about one run of eight before)."""
    import random
    import time

    from tournaments import services

    rng = random.Random(8)
    for attempt in range(12):
        league, group, teams = factories.league_group(teams=2, roster=4, managers=[boss])
        anna, helper = factories.user(f"anna{attempt}"), factories.user(f"helper{attempt}")
        setup.add_manager(league, anna)
        day = create_match_day(group, number=1, date=datetime.date(2026, 9, 1), teams=teams)
        day.tournament.directors.remove(boss)  # e.g. in the admin
        day.tournament.directors.add(helper)
        delay = rng.uniform(0, 0.02)

        def change(index: int, league=league, anna=anna, helper=helper, day=day, delay=delay) -> str:
            if index == 0:
                setup.remove_manager(league, anna)
            else:
                time.sleep(delay)
                try:
                    services.remove_director(day.tournament, helper)
                except services.LastDirector:
                    return "last"
            return "done"

        in_parallel(change, 2)
        assert day.tournament.directors.exists(), attempt


@pytest.mark.django_db(transaction=True)
def test_a_manager_named_while_a_match_day_is_set_up_directs_it(boss):
    """The match day set up at the moment a manager is named is his too: both lock the
    league's row (PostgreSQL lost him in most runs before)."""
    import random
    import time

    rng = random.Random(9)
    for attempt in range(8):
        league, group, teams = factories.league_group(teams=2, roster=4, managers=[boss])
        anna = factories.user(f"anna{attempt}")
        delay = rng.uniform(0, 0.02)

        def change(index: int, league=league, group=group, teams=teams, anna=anna, delay=delay) -> None:
            if index == 0:
                create_match_day(group, number=1, date=datetime.date(2026, 9, 1), teams=teams)
            else:
                time.sleep(delay)
                setup.add_manager(league, anna)

        in_parallel(change, 2)
        assert directed(anna, league) == [1], attempt
