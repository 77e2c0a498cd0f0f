"""Which groups a league's page shows: all of a small league, one of a national one.

A regional league of up to :data:`ONE_PAGE_GROUPS` groups shows them all on one page; a
larger one (the DSkV's national league: about 63 groups of 16, issue 27) one group a
page, ``?group=`` or ``?page=``, with the list of all its groups. So the season table,
the cross table and the manager's league page cost the same at 40 teams as at 1,000:
a group's full season costs about 50 ms to rank, every group of 1,000 teams about 1 s.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.core.paginator import Page
from django.http import Http404, HttpRequest
from django.urls import reverse

from core.paging import page_of

from .models import Group, League

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
