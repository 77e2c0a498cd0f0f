"""The season table of a league of many groups (a national league of about 63
groups of 16): a page of groups at a time, each group's own page (``?group=``), the
groups listed, and a number of queries that does not grow with the groups."""

from __future__ import annotations

import pytest
from django.urls import reverse

from leagues.league_page import ONE_PAGE_GROUPS
from leagues.models import Group, LeagueTeam
from tests import factories

pytestmark = pytest.mark.django_db


def league_of(groups: int):
    league, first, _teams = factories.league_group(teams=2, published=True)
    Group.objects.filter(pk=first.pk).update(name="Staffel 01")
    for g in range(2, groups + 1):
        group = Group.objects.create(league=league, name=f"Staffel {g:02d}")
        LeagueTeam.objects.bulk_create([LeagueTeam(group=group, name=f"Team {g}-{t}") for t in (1, 2)])
    return league


def headings(page: str) -> list[str]:
    return [part.split("</h2>")[0] for part in page.split("<h2>")[1:]]


def test_the_season_table_shows_a_page_of_groups_and_lists_them_all(client):
    league = league_of(5)
    url = reverse("public:season", args=[league.pk])
    page = client.get(url).content.decode()
    assert headings(page) == ["Staffel 01"]  # more than ONE_PAGE_GROUPS: one group a page
    for g in range(1, 6):
        assert f"Staffel {g:02d}</a>" in page or f"Staffel {g:02d}</h2>" in page  # the list of groups
    last = client.get(url, {"page": "5"}).content.decode()
    assert headings(last) == ["Staffel 05"] and "<strong>Staffel 05</strong>" in last  # the page's group marked
    group = Group.objects.get(league=league, name="Staffel 04")
    alone = client.get(url, {"group": str(group.pk)}).content.decode()
    assert headings(alone) == ["Staffel 04"] and "<strong>Staffel 04</strong>" in alone
    client.force_login(factories.user("ligaleiter", superuser=True))
    staff = client.get(reverse("leagues:season", args=[league.pk]), {"page": "3"}).content.decode()
    assert headings(staff) == ["Staffel 03"]


def test_a_group_of_another_league_or_no_group_is_refused_or_ignored(client):
    league, other = league_of(3), league_of(1)
    url = reverse("public:season", args=[league.pk])
    foreign = other.groups.get().pk
    assert client.get(url, {"group": str(foreign)}).status_code == 404
    for nonsense in ("abc", "²", "9" * 30, ""):
        answer = client.get(url, {"group": nonsense})
        assert answer.status_code == 200 and headings(answer.content.decode())[0] == "Staffel 01", nonsense


def test_a_league_of_few_groups_shows_them_all_on_one_page(client):
    league = league_of(ONE_PAGE_GROUPS)
    page = client.get(reverse("public:season", args=[league.pk])).content.decode()
    assert headings(page) == [f"Staffel {g:02d}" for g in range(1, ONE_PAGE_GROUPS + 1)]
    assert "?group=" not in page and 'rel="next"' not in page


@pytest.mark.parametrize("groups", [3, 12])
def test_the_queries_do_not_grow_with_the_groups(client, django_assert_max_num_queries, groups):
    league = league_of(groups)
    url = reverse("public:season", args=[league.pk])
    client.get(url)
    with django_assert_max_num_queries(10):
        assert client.get(url, {"page": "2"}).status_code == 200
    with django_assert_max_num_queries(10):
        assert client.get(url, {"group": str(league.groups.last().pk)}).status_code == 200
