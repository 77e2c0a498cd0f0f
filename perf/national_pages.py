"""The pages of the national league profile (``bench --league-teams N``), each against the page targets.

The issue's five (27, "At national scale"): the season table, a group's page, a team
page, a match day page and the public front page, each <= 100 ms and <= 250 KiB as
every HTML page of the bench (:mod:`perf.pages`), the public cross table, plus the
league manager's pages of the same league, reported beside them. Each is measured as :func:`perf.pages.measure_page`
measures a page: median server time after a warm-up, size, queries of one request.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from django.contrib.auth import get_user_model
from django.urls import reverse

from .national import National
from .pages import ANYONE, DIRECTOR, Page


@dataclass
class NationalSite:
    """What :func:`perf.pages.measure_page` opens the pages on: the league and its manager."""

    national: National
    users: dict[str, object] = field(default_factory=dict)


def _league(name: str, *rest: Callable[[NationalSite], object]) -> Callable[[NationalSite], str]:
    return lambda site: reverse(name, args=[site.national.league.pk, *(arg(site) for arg in rest)])


def _group(site: NationalSite) -> int:
    return site.national.groups[0].pk


def _team(site: NationalSite) -> int:
    return site.national.teams[0].pk


def _day(site: NationalSite) -> int:
    return site.national.match_days[-1].pk


def _group_page(site: NationalSite) -> str:
    """A group's own table: the season table of one group (``?group=``)."""
    return reverse("public:season", args=[site.national.league.pk]) + f"?group={_group(site)}"


#: The pages, in the order printed: the issue's five first (anyone), then the staff's.
PAGES: list[Page] = [
    Page("season table (public)", _league("public:season"), ANYONE),
    Page("a group's page (public)", _group_page, ANYONE),
    Page("team page (public)", _league("public:team", _team), ANYONE),
    Page("match day page (public)", _league("public:match_day", _day), ANYONE),
    Page("front page (public)", lambda site: reverse("director:home"), ANYONE),
    Page("cross table (public)", _league("public:league_cross"), ANYONE),
    Page("season table (staff)", _league("leagues:season"), DIRECTOR),
    Page("match day page (staff)", lambda site: reverse("leagues:match_day", args=[_day(site)]), DIRECTOR),
    Page("league page (staff)", _league("leagues:league"), DIRECTOR),
]


def prepare(national: National, manager) -> NationalSite:
    return NationalSite(national, {DIRECTOR: manager})


def manager():
    """The league's manager: a superuser, as ``manage.py serve`` creates the director."""
    return get_user_model().objects.create_superuser("bench-director", email="", password=None)
