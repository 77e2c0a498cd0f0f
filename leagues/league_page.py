"""The league manager's league page: its groups with their teams and match days, the
forms to add a group, a team and a match day, and the season tables. Shared by the
views that show it again with a refused form (status 422).

A league of more than two groups shows one group a page (``?group=``, ``?page=``) with
the list of all its groups, as the season table does (:mod:`leagues.group_pages`): a
national league of 1,000 teams listed every team with its forms and ranked every group
on one page (at 200 teams already 398 ms and 206 KiB, issue 27)."""

from __future__ import annotations

from django.db.models import Prefetch, prefetch_related_objects
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from .forms import MatchDayForm
from .group_pages import groups_shown
from .models import League, MatchDay
from .results import season_tables
from .setup import teams_with_rosters
from .setup_forms import NameForm, TeamForm


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
