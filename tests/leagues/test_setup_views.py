"""The league official's setup pages (leagues/setup_views.py): a league, its groups, teams
with rosters and captains, hosts and their tokens. Every refusal names the field and the
rule and changes nothing."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth.models import Permission
from django.urls import reverse

from leagues.lineups import create_match_day
from leagues.models import Group, Host, League, LeagueTeam, RosterEntry
from leagues.publication import digest
from tests import factories

pytestmark = pytest.mark.django_db

LEAGUE = {
    "name": "Bezirksliga Nord",
    "season": "2026",
    "tie": "split",
    "tie_break": "lot",
    "series_per_matchday": "3",
    "rounds_per_series": "12",
    "binding_days": "14",
    "published": "",
}


def official(client, username: str = "official"):
    user = factories.user(username)
    user.user_permissions.add(Permission.objects.get(codename="add_league"))
    client.force_login(user)
    return user


def roster_data(names: list[str], *, captain: int | str = "", name: str = "Team A", club: str = "Club A", **rows):
    """The team page's post: the team, eight roster lines (``names`` from position 1), the captain."""
    data = {
        "name": name,
        "club": club,
        "captain": str(captain),
        "roster-TOTAL_FORMS": "8",
        "roster-INITIAL_FORMS": "8",
        "roster-MIN_NUM_FORMS": "8",
        "roster-MAX_NUM_FORMS": "8",
    }
    for index in range(8):
        data[f"roster-{index}-name"] = names[index] if index < len(names) else ""
        data[f"roster-{index}-club"] = ""
        data[f"roster-{index}-membership_number"] = ""
    data.update(rows)
    return data


def test_an_official_sets_up_a_league_and_manages_it(client):
    user = official(client)
    assert client.get(reverse("leagues:league_new")).status_code == 200
    answer = client.post(reverse("leagues:league_new"), LEAGUE)
    league = League.objects.get()
    assert answer.status_code == 302 and answer.url == reverse("leagues:league", args=[league.pk])
    assert league.is_manager(user) and league.series_per_matchday == 3 and not league.published


def test_a_new_league_needs_the_permission(client):
    client.force_login(factories.user("nobody"))
    assert client.post(reverse("leagues:league_new"), LEAGUE).status_code == 403
    assert not League.objects.exists()


def test_a_league_name_is_once_per_season(client):
    official(client)
    factories.league_group(name="Bezirksliga Nord", season="2026")
    answer = client.post(reverse("leagues:league_new"), LEAGUE)
    assert answer.status_code == 422
    assert "Season: the league Bezirksliga Nord has a season 2026 already" in answer.content.decode()
    assert League.objects.count() == 1


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("rounds_per_series", "0", "Ensure this value is greater than or equal to 1."),
        ("series_per_matchday", "7", "Ensure this value is less than or equal to 6."),
        ("tie", "coin", "Select a valid choice. coin is not one of the available choices."),
        ("name", "#DIV/0!", "Not a name: #DIV/0! is a spreadsheet error, not a name."),
        ("season", "", "This field is required."),
    ],
)
def test_bad_league_settings_are_refused_naming_the_field(client, field, value, message):
    official(client)
    answer = client.post(reverse("leagues:league_new"), LEAGUE | {field: value})
    body = answer.content.decode()
    assert answer.status_code == 422
    label = str(League._meta.get_field(field).verbose_name)
    assert f"{label[0].upper()}{label[1:]}: " in body and message in body
    assert not League.objects.exists()


def test_settings_change_and_the_tie_rule_stays_once_a_match_day_is_binding(client):
    manager = factories.user("m")
    client.force_login(manager)
    league, group, teams = factories.league_group(teams=2, managers=[manager])
    url = reverse("leagues:settings", args=[league.pk])
    assert client.get(url).status_code == 200
    answer = client.post(url, LEAGUE | {"name": league.name, "season": "2026", "binding_days": "7", "published": "on"})
    assert answer.status_code == 302
    league.refresh_from_db()
    assert league.binding_days == 7 and league.published
    day = create_match_day(group, number=1, date=datetime.date(2026, 9, 5), teams=teams)
    now = datetime.datetime.now(datetime.UTC)
    type(day).objects.filter(pk=day.pk).update(checked_at=now, binding_at=now)
    answer = client.post(url, LEAGUE | {"name": league.name, "tie": "both", "binding_days": "3"})
    assert answer.status_code == 422
    assert "Equal game points: a match day is binding: the rule that valued it stays" in answer.content.decode()
    league.refresh_from_db()
    assert league.tie == "split" and league.binding_days == 7


def test_settings_are_the_managers_only(client):
    league, _group, _teams = factories.league_group(teams=2, managers=[factories.user("m")])
    client.force_login(factories.user("other"))
    assert client.post(reverse("leagues:settings", args=[league.pk]), LEAGUE).status_code == 403
    assert League.objects.get().name != LEAGUE["name"]


def test_groups_have_names_unique_in_the_league(client):
    manager = factories.user("m")
    client.force_login(manager)
    league, group, _teams = factories.league_group(teams=2, managers=[manager])
    url = reverse("leagues:group_new", args=[league.pk])
    assert client.post(url, {"group-name": "Staffel 2"}).status_code == 302
    answer = client.post(url, {"group-name": "staffel 1"})
    assert answer.status_code == 422
    assert "Name: the league has a group staffel 1 already" in answer.content.decode()
    answer = client.post(reverse("leagues:group_edit", args=[league.pk, group.pk]), {"name": "Staffel 2"})
    assert answer.status_code == 422
    answer = client.post(reverse("leagues:group_edit", args=[league.pk, group.pk]), {"name": "Staffel Süd"})
    assert answer.status_code == 302
    assert sorted(Group.objects.values_list("name", flat=True)) == ["Staffel 2", "Staffel Süd"]


def test_two_teams_of_one_name_in_a_group_are_refused(client):
    manager = factories.user("m")
    client.force_login(manager)
    league, group, _teams = factories.league_group(teams=2, managers=[manager])
    url = reverse("leagues:team_new", args=[league.pk, group.pk])
    answer = client.post(url, {f"team-{group.pk}-name": "team a", f"team-{group.pk}-club": ""})
    assert answer.status_code == 422
    assert "Team name: Staffel 1 has a team team a already" in answer.content.decode()
    answer = client.post(url, {f"team-{group.pk}-name": "Team C", f"team-{group.pk}-club": "SC Grand"})
    team = LeagueTeam.objects.get(name="Team C")
    assert answer.status_code == 302 and answer.url == reverse("leagues:team_edit", args=[league.pk, team.pk])
    assert team.club.name == "SC Grand" and LeagueTeam.objects.count() == 3


def test_a_roster_of_eight_positions_with_a_captain(client, django_assert_max_num_queries):
    manager = factories.user("m")
    client.force_login(manager)
    league, group, _teams = factories.league_group(teams=0, managers=[manager])
    team = LeagueTeam.objects.create(group=group, name="Kreuz Bube")
    url = reverse("leagues:team_edit", args=[league.pk, team.pk])
    names = ["Anna Acht", "Bernd Bube", "Clara Dame", "Dieter Daus", "Elke Eichel"]
    data = roster_data(names, captain=2, name="Kreuz Bube", club="SC Kreuz")
    data["roster-4-club"] = "SV Herz"
    assert client.post(url, data).status_code == 302
    roster = {e.position: e.player for e in RosterEntry.objects.filter(team=team).select_related("player__club")}
    assert [roster[p].name for p in sorted(roster)] == names
    assert roster[1].club.name == "SC Kreuz" and roster[5].club.name == "SV Herz"
    team.refresh_from_db()
    assert team.captain == roster[2] and team.club.name == "SC Kreuz"
    # Saved again with a reserve moved up: the same players, no new ones.
    data["roster-5-name"], data["roster-4-name"], data["roster-4-club"] = "Elke Eichel", "", ""
    data["roster-5-club"] = "SV Herz"
    assert client.post(url, data).status_code == 302
    assert RosterEntry.objects.get(team=team, position=6).player == roster[5]
    with django_assert_max_num_queries(12):
        page = client.get(url)
    assert "Elke Eichel" in page.content.decode() and "reserve" in page.content.decode()


def test_a_player_twice_in_one_roster_is_refused(client):
    manager = factories.user("m")
    client.force_login(manager)
    league, _group, teams = factories.league_group(teams=2, managers=[manager])
    before = list(RosterEntry.objects.values_list("team", "player", "position"))
    url = reverse("leagues:team_edit", args=[league.pk, teams[0].pk])
    answer = client.post(url, roster_data(["A1", "A2", "A3", "A1"]))
    assert answer.status_code == 422
    assert "Position 4 · Name: A1 is at position 1 already: a player is once in a roster." in answer.content.decode()
    answer = client.post(url, roster_data(["A1", "B2"], club="Club A", **{"roster-1-club": "Club B"}))
    assert answer.status_code == 422
    assert "Position 2 · Name: B2 is on the roster of Team B already" in answer.content.decode()
    assert list(RosterEntry.objects.values_list("team", "player", "position")) == before


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"captain": "6"}, "Captain: position 6 is empty: the captain is a player of the roster"),
        ({"captain": "9"}, "Select a valid choice. 9 is not one of the available choices."),
        ({"roster-2-club": "Club C"}, "Enter the player&#x27;s name, or clear the line"),
        ({"roster-TOTAL_FORMS": "9"}, "Please submit at most 8 forms."),
        ({"name": ""}, "This field is required."),
    ],
)
def test_a_bad_team_page_changes_nothing(client, change, message):
    manager = factories.user("m")
    client.force_login(manager)
    league, _group, teams = factories.league_group(teams=2, managers=[manager])
    before = list(RosterEntry.objects.values_list("team", "player", "position"))
    url = reverse("leagues:team_edit", args=[league.pk, teams[0].pk])
    data = roster_data(["A1", "A2", "A3", "A4", "A5"], captain=1) | {"roster-2-name": ""}
    answer = client.post(url, data | change)
    assert answer.status_code == 422
    assert message in answer.content.decode()
    assert list(RosterEntry.objects.values_list("team", "player", "position")) == before


def test_a_team_that_played_keeps_its_name(client):
    manager = factories.user("m")
    client.force_login(manager)
    league, group, teams = factories.league_group(teams=2, managers=[manager])
    create_match_day(group, number=1, date=datetime.date(2026, 9, 5), teams=teams)
    url = reverse("leagues:team_edit", args=[league.pk, teams[0].pk])
    answer = client.post(url, roster_data(["A1", "A2", "A3", "A4"], name="Team Z"))
    assert answer.status_code == 422
    assert "Team name: Team A plays a match day already: its name stays for the season" in answer.content.decode()
    assert LeagueTeam.objects.filter(name="Team A").exists()


def test_a_host_token_is_shown_once_and_can_be_withdrawn(client):
    manager = factories.user("m")
    client.force_login(manager)
    league, _group, _teams = factories.league_group(teams=2, managers=[manager])
    answer = client.post(reverse("leagues:host_new", args=[league.pk]), {"name": "SC Kreuz"})
    host = Host.objects.get()
    token = answer.context["token"]
    assert answer.status_code == 200 and token in answer.content.decode()
    assert host.token_digest == digest(token) and host.active
    page = client.get(reverse("leagues:hosts", args=[league.pk])).content.decode()
    assert "SC Kreuz" in page and token not in page
    answer = client.post(reverse("leagues:host_new", args=[league.pk]), {"name": "sc kreuz"})
    assert answer.status_code == 422 and "Name: the league has a host sc kreuz already" in answer.content.decode()
    answer = client.post(reverse("leagues:host_active", args=[league.pk, host.pk]), {"active": "maybe"})
    assert "active: send 0 to withdraw the token or 1" in str(next(iter(answer.wsgi_request._messages)))
    assert Host.objects.get().active
    client.post(reverse("leagues:host_active", args=[league.pk, host.pk]), {"active": "0"})
    assert not Host.objects.get().active
    answer = client.post(reverse("leagues:renew_host_token", args=[league.pk, host.pk]))
    fresh = answer.context["token"]
    host.refresh_from_db()
    assert fresh != token and host.token_digest == digest(fresh) and host.active


@pytest.mark.parametrize(("teams", "groups"), [(2, 1), (8, 1), (4, 8)])
def test_the_league_page_in_a_fixed_number_of_queries(client, teams, groups, django_assert_max_num_queries):
    manager = factories.user("m")
    client.force_login(manager)
    league, group, made = factories.league_group(teams=teams, managers=[manager])
    create_match_day(group, number=1, date=datetime.date(2026, 9, 5), teams=made)
    Group.objects.create(league=league, name="Staffel 2")
    for number in range(3, groups + 2):  # more groups of teams: each with the forms to add a match day
        more = Group.objects.create(league=league, name=f"Staffel {number}")
        LeagueTeam.objects.bulk_create([LeagueTeam(group=more, name=f"Team {n}") for n in range(4)])
    url = reverse("leagues:league", args=[league.pk])
    with django_assert_max_num_queries(18):  # the same for 2 teams as for 8, for 2 groups as for 9
        page = client.get(url)
    body = page.content.decode()
    assert page.status_code == 200 and "6 players" in body and "Staffel 2" in body
    with django_assert_max_num_queries(18):  # a league of 9 groups shows one a page (test_league_page.py)
        body = client.get(url, {"group": league.groups.get(name="Staffel 2").pk}).content.decode()
    assert "No team yet." in body
