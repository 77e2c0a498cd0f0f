"""The match-day package: the server's export and the hall's import (leagues/packages/)."""

from __future__ import annotations

import copy
import datetime
import json

import pytest

from draw.series import draw_series
from leagues.lineups import set_line_up
from leagues.models import Group, Host, League, LeagueTeam, MatchDay, RosterEntry
from leagues.packages.imports import import_package
from leagues.packages.schema import FORMAT, PackageError, parse, read_package
from tests import factories
from tournaments.models import Player, Team, Tournament

from .helpers import exported, forget, hall_director, server_world

pytestmark = pytest.mark.django_db

MODELS = (League, Group, LeagueTeam, RosterEntry, Host, MatchDay, Tournament, Team, Player)


def snapshot() -> dict:
    """Every row the import may write, with what it holds."""
    return {
        model.__name__: sorted(map(repr, model.objects.values_list(*[f.attname for f in model._meta.concrete_fields])))
        for model in MODELS
    }


def as_bytes(data: dict) -> bytes:
    return json.dumps(data).encode()


@pytest.fixture
def package_and_hall():
    league, host, _token, _day, _elsewhere = server_world()
    data = exported(host)
    forget(league)
    return data, hall_director()


def test_the_package_holds_the_hosts_match_day_only(django_assert_max_num_queries):
    _league, host, _token, day, elsewhere = server_world(tie="both", binding_days=7, lot_seed=99)
    with django_assert_max_num_queries(5):
        data = exported(host)
    assert data["format"] == FORMAT and data["version"] == 1 and data["host"] == "SC Herz Dame"
    assert data["league"]["rules"] == {
        "tie": "both",
        "tie_break": "lot",
        "series_per_matchday": 2,
        "rounds_per_series": 1,
        "binding_days": 7,
        "lot_seed": 99,
    }
    assert [d["key"] for d in data["match_days"]] == [day.key]  # not the other host's match day 2
    assert elsewhere.key not in json.dumps(data)
    (group,) = data["groups"]
    assert [t["name"] for t in group["teams"]] == ["Team A", "Team B", "Team C", "Team D"]
    team_a = group["teams"][0]
    assert team_a["captain"] == 1 and team_a["club"] == ""
    assert team_a["roster"][0] == {"position": 1, "name": "A1", "membership_number": "10001", "club": "Club A"}
    plan = data["match_days"][0]["setzplan"]
    assert len(plan) == 2 and all(len(tables) == 4 for tables in plan)
    assert plan[0][0] == [["Team A", 1], ["Team B", 1], ["Team C", 1], ["Team D", 1]]
    assert parse(data).match_days[0].key == day.key  # what the server writes, the hall reads


def test_a_hall_imports_the_package_once_and_again_changes_nothing(package_and_hall):
    data, user = package_and_hall
    known = Player.objects.get(membership_number="10001")
    done = import_package(read_package(as_bytes(data)), user)
    league = done.league
    assert (league.name, league.season, league.tie, league.series_per_matchday, league.lot_seed) == (
        "Verbandsliga",
        "2026",
        "split",
        2,
        11,
    )
    assert league.is_manager(user)
    (day,) = done.match_days
    assert (day.key, day.number, day.date, day.host.name) == (
        data["match_days"][0]["key"],
        1,
        datetime.date(2026, 9, 5),
        "SC Herz Dame",
    )
    assert sorted(day.teams.values_list("name", flat=True)) == ["Team A", "Team B", "Team C", "Team D"]
    assert sorted(Team.objects.filter(tournament=day.tournament).values_list("name", flat=True)) == [
        "Team A",
        "Team B",
        "Team C",
        "Team D",
    ]
    assert day.tournament.series_count == 2 and day.tournament.is_director(user)
    team_a = LeagueTeam.objects.get(group__league=league, name="Team A")
    assert team_a.roster.get(position=1).player == known  # found by his membership number
    assert team_a.captain == known and team_a.roster.count() == 6
    assert done.changes[0] == "League Verbandsliga 2026 set up."
    assert "Teams added to Staffel 1: Team A, Team B, Team C, Team D." in done.changes

    before = snapshot()
    again = import_package(read_package(as_bytes(data)), user)
    assert again.changes == [] and again.match_days == [day]
    assert snapshot() == before


def test_a_changed_roster_updates_the_hall_and_says_so(package_and_hall):
    data, user = package_and_hall
    import_package(read_package(as_bytes(data)), user)
    changed = copy.deepcopy(data)
    roster = changed["groups"][0]["teams"][1]["roster"]
    roster[5] = {"position": 6, "name": "Bert Neu", "membership_number": "20006", "club": "Club B"}
    changed["match_days"][0]["date"] = "2026-09-06"
    done = import_package(read_package(as_bytes(changed)), user)
    assert done.changes == [
        "Roster of Team B changed (in: Bert Neu; out: B6).",
        "Match day 1, Staffel 1 changed (date, host or teams).",
    ]
    team_b = LeagueTeam.objects.get(group__league=done.league, name="Team B")
    assert team_b.roster.get(position=6).player.membership_number == "20006"
    assert done.match_days[0].date == datetime.date(2026, 9, 6)
    assert done.match_days[0].tournament.date == datetime.date(2026, 9, 6)


def test_hostile_packages_are_refused_naming_the_field_and_nothing_changes(package_and_hall):
    data, user = package_and_hall
    wrong_format = data | {"format": "something-else"}
    newer = data | {"version": 2}
    bad_date = copy.deepcopy(data)
    bad_date["match_days"][0]["date"] = "5.9.2026"
    stranger = copy.deepcopy(data)
    stranger["match_days"][0]["teams"][0] = "Team Z"
    twin = copy.deepcopy(data)
    twin["groups"][0]["teams"][0]["roster"][1]["position"] = 1
    other_plan = copy.deepcopy(data)
    other_plan["match_days"][0]["setzplan"][0].reverse()
    cases = [
        (b'{"format": "skat-office/match-day-package", ', "file: The file is not JSON: line 1, column 45"),
        (b"[" * 50 + b"]" * 50, "file: Line 1: nested deeper than 8 levels."),
        (b'{"a": "' + b"x" * 300_000 + b'"}', "file: The file is larger than 256 KB."),
        (b'{"format": 1, "format": 2}', "file: The key “format” appears twice in one object."),
        (as_bytes(wrong_format), "format: this is not a match-day package of the Skat office"),
        (as_bytes(newer), "version: version 2; this office reads version 1 (update the office)"),
        (as_bytes(bad_date), "match_days[0].date: must be a date as YYYY-MM-DD"),
        (as_bytes(stranger), "match_days[0].teams[0]: Team Z is no team of Staffel 1 in the package"),
        (as_bytes(twin), "groups[0].teams[0].roster: a position appears twice"),
        (as_bytes(other_plan), "match_days[0].setzplan: differs from this office's fixed seating plan"),
    ]
    before = snapshot()
    for body, message in cases:
        with pytest.raises(PackageError) as refused:
            import_package(read_package(body), user)
        assert str(refused.value).startswith(message), (message, str(refused.value))
    assert snapshot() == before


def _changed(data: dict, path: tuple, value) -> dict:
    changed = copy.deepcopy(data)
    target = changed
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = value
    return changed


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        (("version",), True, "version: must be the whole number 1 (found true, true or false)"),
        (("version",), 1.0, "version: must be the whole number 1 (found 1.0, a decimal number)"),
        (("version",), "1", 'version: must be the whole number 1 (found "1", a text)'),
        (("version",), None, "version: must be the whole number 1 (found null)"),
        (("version",), [1], "version: must be the whole number 1 (found a list)"),
        (("league", "rules", "rounds_per_series"), 12.0, "league.rules.rounds_per_series: must be a whole number"),
        (("league", "rules", "binding_days"), True, "league.rules.binding_days: must be a whole number (found true"),
        (("league", "rules", "tie"), ["split"], "league.rules.tie: must be one of"),
        (("league", "name"), 7, "league.name: must be a text (found 7, a whole number)"),
        (("groups", 0, "teams", 0, "captain"), False, "groups[0].teams[0].captain: must be a whole number"),
        (("groups", 0, "teams", 0, "roster", 0, "position"), 1.0, "groups[0].teams[0].roster[0].position: must be"),
        (("match_days", 0, "number"), "1", 'match_days[0].number: must be a whole number (found "1", a text)'),
        (("match_days", 0, "teams"), "Team A", 'match_days[0].teams: must be a list (found "Team A", a text)'),
        (("league",), [], "league: must be an object (found a list)"),
    ],
)
def test_a_field_of_the_wrong_kind_is_refused_naming_the_field_the_rule_and_what_was_found(
    package_and_hall, path, value, message
):
    """JSON's kinds strictly: ``true`` is no number and ``1.0`` no whole number (in Python ``True == 1.0 == 1``)."""
    data, user = package_and_hall
    before = snapshot()
    with pytest.raises(PackageError) as refused:
        import_package(read_package(as_bytes(_changed(data, path, value))), user)
    assert str(refused.value).startswith(message), str(refused.value)
    assert snapshot() == before


@pytest.mark.parametrize("kind", [True, 1.0])
def test_a_setzplan_with_numbers_of_another_kind_is_not_the_plan(package_and_hall, kind):
    data, user = package_and_hall
    changed = copy.deepcopy(data)
    seat = changed["match_days"][0]["setzplan"][0][0][0]
    assert seat[1] == 1  # the first seat of the plan: the team's first player
    seat[1] = kind
    before = snapshot()
    with pytest.raises(PackageError, match=r"match_days\[0\].setzplan: differs"):
        import_package(read_package(as_bytes(changed)), user)
    assert snapshot() == before


def test_a_league_the_user_does_not_run_and_a_drawn_match_day_stay_as_they_are(package_and_hall):
    data, user = package_and_hall
    done = import_package(read_package(as_bytes(data)), user)
    stranger = factories.user("fremd")
    with pytest.raises(PackageError, match="league: you do not manage Verbandsliga 2026 on this office"):
        import_package(read_package(as_bytes(data)), stranger)
    (day,) = done.match_days
    for team in day.teams.all():
        set_line_up(day, team, [e.player for e in team.roster.filter(position__lte=4)])
    draw_series(day.tournament)
    moved = copy.deepcopy(data)
    moved["match_days"][0]["date"] = "2026-09-12"
    before = snapshot()
    with pytest.raises(PackageError, match=r"match_days\[0\]: Match day 1, Staffel 1 is drawn on this office"):
        import_package(read_package(as_bytes(moved)), user)
    assert snapshot() == before
