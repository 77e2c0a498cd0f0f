"""The manager's league page and the cross table of a league of many groups (a
national league of about 63 groups of 16): one group a page with the list of all groups,
a refused form shown on its group's page, and the same queries whatever the league's size."""

from __future__ import annotations

import datetime
import re

import pytest
from django.urls import reverse

from leagues import results
from leagues.league_page import ONE_PAGE_GROUPS
from leagues.lineups import create_match_day
from leagues.models import Group, Host, LeagueTeam
from tests import factories
from tests.leagues.helpers import played_day

pytestmark = pytest.mark.django_db


def league_of(groups: int, manager, *, played: bool = False):
    """``groups`` groups of four teams, each with a match day set up (Staffel 01: A-D;
    ``played``: its match day played, one series, won by Team A)."""
    league, first, made = factories.league_group(
        teams=4, managers=[manager], published=True, series_per_matchday=1, rounds_per_series=1
    )
    Group.objects.filter(pk=first.pk).update(name="Staffel 01")
    if played:
        played_day(first, made, 1, ["Team A"])
    else:
        create_match_day(first, number=1, date=datetime.date(2026, 9, 5), teams=made)
    for g in range(2, groups + 1):
        group = Group.objects.create(league=league, name=f"Staffel {g:02d}")
        teams = LeagueTeam.objects.bulk_create([LeagueTeam(group=group, name=f"Team {g}-{t}") for t in range(1, 5)])
        create_match_day(group, number=1, date=datetime.date(2026, 9, 5), teams=teams)
    return league


def sections(page: str) -> list[str]:
    """The groups the league page shows with their teams and forms."""
    return re.findall(r'<section class="card league-group" data-group="([^"]+)"', page)


@pytest.fixture
def manager(client):
    user = factories.user("ligaleiter")
    client.force_login(user)
    return user


def test_a_league_of_many_groups_shows_one_group_a_page_and_lists_them_all(client, manager):
    league = league_of(5, manager)
    url = reverse("leagues:league", args=[league.pk])
    page = client.get(url).content.decode()
    assert sections(page) == ["Staffel 01"] and "Team A" in page and "Team 2-1" not in page
    for g in range(2, 6):  # the list of groups, each a link to its page
        pk = league.groups.get(name=f"Staffel {g:02d}").pk
        assert f'<a href="{url}?group={pk}">Staffel {g:02d}</a>' in page
    fourth = league.groups.get(name="Staffel 04")
    alone = client.get(url, {"group": fourth.pk}).content.decode()
    assert sections(alone) == ["Staffel 04"] and "<strong>Staffel 04</strong>" in alone
    assert "Team 4-1" in alone and "Team A" not in alone
    # the season table under it: the shown group's only
    assert alone.count("league-table") == 1 and "/p/league/" in alone
    other = factories.league_group(teams=2)[0]
    assert client.get(url, {"group": other.groups.get().pk}).status_code == 404


def test_a_league_of_few_groups_shows_them_all(client, manager):
    league = league_of(ONE_PAGE_GROUPS, manager)
    page = client.get(reverse("leagues:league", args=[league.pk])).content.decode()
    assert sections(page) == [f"Staffel {g:02d}" for g in range(1, ONE_PAGE_GROUPS + 1)]
    assert "?group=" not in page


def test_a_refused_form_is_shown_on_its_groups_page(client, manager):
    league = league_of(5, manager)
    third = league.groups.get(name="Staffel 03")
    answer = client.post(reverse("leagues:team_new", args=[league.pk, third.pk]), {f"team-{third.pk}-name": ""})
    page = answer.content.decode()
    assert answer.status_code == 422 and sections(page) == ["Staffel 03"] and "This field is required." in page
    # the list of groups leads to the league page, not to the form's address
    first = league.groups.get(name="Staffel 01").pk
    assert f'href="{reverse("leagues:league", args=[league.pk])}?group={first}"' in page
    day = {f"group-{third.pk}-number": "1", f"group-{third.pk}-date": "2026-10-01"}
    answer = client.post(reverse("leagues:match_day_new", args=[league.pk, third.pk]), day)
    page = answer.content.decode()
    assert answer.status_code == 422 and sections(page) == ["Staffel 03"]
    assert "Staffel 03 has a match day 1 already." in page


def test_a_new_or_renamed_group_leads_to_its_page(client, manager):
    league = league_of(3, manager)
    answer = client.post(reverse("leagues:group_new", args=[league.pk]), {"group-name": "Staffel 09"})
    made = league.groups.get(name="Staffel 09")
    url = reverse("leagues:league", args=[league.pk])
    assert answer.status_code == 302 and answer.url == f"{url}?group={made.pk}"
    page = client.get(answer.url).content.decode()
    assert sections(page) == ["Staffel 09"] and "No team yet." in page
    answer = client.post(reverse("leagues:group_edit", args=[league.pk, made.pk]), {"name": "Staffel 10"})
    assert answer.url.endswith(f"?group={made.pk}")


@pytest.mark.parametrize("groups", [3, 12])
def test_the_league_page_costs_the_same_at_any_size(client, manager, django_assert_max_num_queries, groups):
    league = league_of(groups, manager)
    url = reverse("leagues:league", args=[league.pk])
    with django_assert_max_num_queries(18):  # the same for 3 groups as for 12
        page = client.get(url).content.decode()
    assert sections(page) == ["Staffel 01"]
    third = league.groups.get(name="Staffel 03").pk
    with django_assert_max_num_queries(18):
        page = client.get(url, {"group": third}).content.decode()
    assert sections(page) == ["Staffel 03"]


def ranked(monkeypatch) -> list[list[str]]:
    """The groups each call of :func:`leagues.results.season_tables` ranks, by name."""
    calls: list[list[str]] = []
    original = results.season_tables

    def spy(groups):
        groups = list(groups)
        calls.append([group.name for group in groups])
        return original(groups)

    monkeypatch.setattr("leagues.public_views.season_tables", spy)  # the season and cross tables
    monkeypatch.setattr("leagues.league_page.season_tables", spy)
    return calls


def test_the_league_page_ranks_only_the_group_it_shows(client, manager, monkeypatch):
    league = league_of(4, manager)
    calls = ranked(monkeypatch)
    client.get(reverse("leagues:league", args=[league.pk]))
    assert calls == [["Staffel 01"]]


@pytest.mark.parametrize("groups", [3, 12])
def test_the_cross_table_ranks_only_the_group_it_shows(client, manager, monkeypatch, groups):
    league = league_of(groups, manager)
    calls = ranked(monkeypatch)
    client.logout()
    url = reverse("public:league_cross", args=[league.pk])
    page = client.get(url).content.decode()
    assert calls == [["Staffel 01"]] and '<section class="card" id="group-' in page
    assert page.count('<section class="card" id="group-') == 1 and 'rel="next"' in page
    second = league.groups.get(name="Staffel 02")
    page = client.get(url, {"group": second.pk}).content.decode()
    assert calls[-1] == ["Staffel 02"] and f'id="group-{second.pk}"' in page and "<strong>Staffel 02</strong>" in page
    assert client.get(url, {"page": "3"}).status_code == 200 and calls[-1] == ["Staffel 03"]


@pytest.mark.parametrize("groups", [3, 12])
def test_the_cross_table_costs_the_same_at_any_size(client, manager, django_assert_max_num_queries, groups):
    league = league_of(groups, manager)
    for name, who in (("public:league_cross", None), ("seasons:cross", manager)):
        if who is None:
            client.logout()
        else:
            client.force_login(who)
        with django_assert_max_num_queries(14):  # the same for 3 groups as for 12
            assert client.get(reverse(name, args=[league.pk])).status_code == 200


@pytest.mark.parametrize("groups", [ONE_PAGE_GROUPS, 3])
def test_the_season_table_links_to_its_groups_cross_table(client, manager, groups):
    league = league_of(groups, manager, played=True)
    first = league.groups.get(name="Staffel 01").pk
    page = client.get(reverse("public:season", args=[league.pk])).content.decode()
    cross = reverse("public:league_cross", args=[league.pk])
    # one group a page: the link opens its group's page; a small league's page shows all
    link = f"{cross}?group={first}#group-{first}" if groups > ONE_PAGE_GROUPS else f"{cross}#group-{first}"
    assert f'href="{link}"' in page
    shown = client.get(link.split("#")[0]).content.decode()
    assert f'id="group-{first}"' in shown and "3:0" in shown  # A won the only series: 3 points to none


@pytest.mark.parametrize("days", [1, 3])
def test_the_cross_table_names_the_hosts_without_a_query_each(client, manager, django_assert_max_num_queries, days):
    league, group, teams = factories.league_group(teams=4, series_per_matchday=1, rounds_per_series=1)
    for number in range(1, days + 1):
        day = played_day(group, teams, number, ["Team A"])
        day.host = Host.objects.create(league=league, name=f"Halle {number}", token_digest=f"digest-{number}")
        day.save(update_fields=["host"])
    client.force_login(factories.user("staffelleiter", superuser=True))
    with django_assert_max_num_queries(13):  # the same for one match day as for three
        page = client.get(reverse("seasons:cross", args=[league.pk])).content.decode()
    assert all(f"{n} (Halle {n})" in page for n in range(1, days + 1))


@pytest.mark.parametrize("hosts", [2, 30])
def test_the_host_list_is_written_without_a_template_per_host(client, manager, hosts):
    league = league_of(3, manager)
    made = Host.objects.bulk_create(
        [Host(league=league, name=f"Halle {n:02d}", token_digest=f"digest-{league.pk}-{n}") for n in range(hosts)]
    )
    answer = client.get(reverse("leagues:league", args=[league.pk]))
    assert [t.name for t in answer.templates].count("django/forms/widgets/select_option.html") == 0
    page = answer.content.decode()
    assert all(f'<option value="{host.pk}">{host.name}</option>' in page for host in made)
    first = league.groups.get(name="Staffel 01")
    chosen = made[-1]
    refused = {
        f"group-{first.pk}-number": "2",
        f"group-{first.pk}-date": "2026-10-01",
        f"group-{first.pk}-host": chosen.pk,
    }
    answer = client.post(reverse("leagues:match_day_new", args=[league.pk, first.pk]), refused)
    page = answer.content.decode()  # no teams ticked: refused, the host still chosen
    assert answer.status_code == 422 and f'<option value="{chosen.pk}" selected>{chosen.name}</option>' in page
    assert f'<select name="group-{first.pk}-host" id="id_group-{first.pk}-host">' in page
