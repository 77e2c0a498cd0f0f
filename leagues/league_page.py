"""The league's pages of groups, and the manager's league page.

Which groups a page shows (:func:`groups_shown`): all of a small league, one of a
national one. A regional league of up to :data:`ONE_PAGE_GROUPS` groups shows them all
on one page; a larger one (the DSkV's national league: about 63 groups of 16)
one group a page, ``?group=`` or ``?page=``, with the list of all its groups. So the
season table, the cross table and the manager's league page cost the same at 40 teams as
at 1,000: a group's full season costs about 50 ms to rank, every group of 1,000 teams
about 1 s, and the league page listing every team with its forms took 20 s and 1.34 MB.

The manager's league page: its groups with their teams and match days, the forms to
add a group, a team and a match day, and the season tables. Shared by the views that
show it again with a refused form (status 422), on the form's group's page."""

from __future__ import annotations

from dataclasses import dataclass

from django.core.paginator import Page
from django.db.models import Prefetch, prefetch_related_objects
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse

from core.paging import page_of

from .forms import MatchDayForm
from .models import Group, League, MatchDay
from .results import season_tables
from .setup import teams_with_rosters
from .setup_forms import NameForm, TeamForm

#: A league of up to this many groups shows them all on one page.
ONE_PAGE_GROUPS = 2


@dataclass
class GroupsShown:
    """The page's groups (``shown``), the pager (None when a group was named) and the
    list of all groups as (id, name) for the index (empty when every group is shown)."""

    shown: list[Group]
    page: Page | None
    index: list[tuple[int, str]]

    @property
    def shown_ids(self) -> set[int]:
        return {group.pk for group in self.shown}


def _chosen(request: HttpRequest) -> int | None:
    """``?group=``: a group id, else None (nonsense is ignored: the first page)."""
    chosen = request.GET.get("group", "")
    return int(chosen) if chosen.isascii() and chosen.isdigit() and len(chosen) <= 18 else None


def groups_shown(request: HttpRequest, league: League, *, group_id: int | None = None) -> GroupsShown:
    """The groups the page shows: ``group_id`` (a refused form's group, in a league of
    more than :data:`ONE_PAGE_GROUPS`) or ``?group=`` names one (404 if it is not this
    league's), else the ``?page=`` of the groups, all
    of them for a league of at most :data:`ONE_PAGE_GROUPS`. The groups are read in one
    query: the list of all groups costs no query per group."""
    groups = list(league.groups.select_related("league"))
    several = len(groups) > ONE_PAGE_GROUPS
    chosen = group_id if group_id is not None and several else _chosen(request)
    page = None
    if chosen is not None:
        shown = [group for group in groups if group.pk == chosen]
        if not shown:
            raise Http404("no such group in this league")
    else:
        page = page_of(request, groups, len(groups) if 0 < len(groups) <= ONE_PAGE_GROUPS else 1)
        shown = list(page.object_list)
    return GroupsShown(shown, page, [(group.pk, group.name) for group in groups] if several else [])


def league_page_url(group: Group) -> str:
    """The manager's league page showing ``group`` (where a change to the group leads back)."""
    return reverse("leagues:league", args=[group.league_id]) + f"?group={group.pk}"


def league_page(
    request: HttpRequest,
    league: League,
    *,
    group_form: NameForm | None = None,
    bound: dict[tuple[str, int], object] | None = None,
    status: int = 200,
) -> HttpResponse:
    """``bound``: a refused form to show again, by (kind, group id), kind "team" or
    "match_day"; the page shows that form's group."""
    bound = bound or {}
    chosen = groups_shown(request, league, group_id=next((group_id for _kind, group_id in bound), None))
    groups = chosen.shown
    prefetch_related_objects(
        groups, "teams", Prefetch("match_days", queryset=MatchDay.objects.select_related("host", "group__league"))
    )
    teams = teams_with_rosters([group.pk for group in groups])
    hosts = list(league.hosts.all())
    rows = []
    for group in groups:
        rows.append(
            {
                "group": group,
                "teams": teams.get(group.pk, []),
                "team_form": bound.get(("team", group.pk)) or TeamForm(prefix=f"team-{group.pk}"),
                "form": bound.get(("match_day", group.pk))
                or MatchDayForm(group=group, hosts=hosts, prefix=f"group-{group.pk}"),
                "open_team": ("team", group.pk) in bound or not teams.get(group.pk),
                "open_match_day": ("match_day", group.pk) in bound,
            }
        )
    context = {
        "league": league,
        "groups": rows,
        "group_form": group_form or NameForm(prefix="group"),
        "seasons": season_tables(groups),
        "staff": True,
        "page": chosen.page,
        "index": chosen.index,
        "shown": chosen.shown_ids,
    }
    return render(request, "leagues/league.html", context, status=status)
