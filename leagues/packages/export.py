"""The league server's side: a host's match-day package (:mod:`leagues.packages.schema`).

Only the host's own match days, with the teams that play them, their rosters, the Setzplan
and the league's rules: what the hall office needs to run them without retyping anything,
and nothing of the other hosts' match days. Four queries, whatever the number of teams.
"""

from __future__ import annotations

import json

from django.utils import timezone

from leagues.models import Host, MatchDay, RosterEntry

from .schema import FORMAT, VERSION, setzplan


class NoMatchDay(LookupError):
    """The host has no such match day (or none at all): the message says which; ``status``
    403 when it is another host's."""

    def __init__(self, message: str, status: int = 404) -> None:
        super().__init__(message)
        self.status = status


def host_match_days(host: Host, key: str | None = None) -> list[MatchDay]:
    """The host's match days (one of them when ``key`` is given), oldest first."""
    days = MatchDay.objects.filter(host=host).select_related("group").prefetch_related("teams__club")
    if key is not None:
        days = days.filter(key=key)
    found = list(days.order_by("date", "number", "pk"))
    if not found and key is not None:
        other = MatchDay.objects.filter(key=key, group__league_id=host.league_id).select_related("host").first()
        if other is not None:
            raise NoMatchDay(f"matchday: match day {other.number} is hosted by {other.host or 'nobody yet'}", 403)
        raise NoMatchDay(f"matchday: no match day of {host.league} has the key {key[:40]}")
    if not found:
        raise NoMatchDay(f"matchday: {host.name} hosts no match day of {host.league} yet")
    return found


def package(host: Host, days: list[MatchDay]) -> dict:
    """The package of these match days of ``host`` (a dict, :func:`as_json` writes it)."""
    league = host.league
    groups: dict[int, dict] = {}
    teams = {}
    for day in days:
        for team in sorted(day.teams.all(), key=lambda t: t.name):
            if team.pk not in teams:
                teams[team.pk] = team
                groups.setdefault(day.group_id, {"name": day.group.name, "teams": []})["teams"].append(team)
    roster: dict[int, list[dict]] = {pk: [] for pk in teams}
    captains: dict[int, int] = {}
    entries = RosterEntry.objects.filter(team__in=list(teams)).select_related("player__club").order_by("position")
    for entry in entries:
        player = entry.player
        if player.pk == teams[entry.team_id].captain_id:
            captains[entry.team_id] = entry.position
        roster[entry.team_id].append(
            {
                "position": entry.position,
                "name": player.name,
                "membership_number": player.membership_number,
                "club": player.club.name if player.club_id else "",
            }
        )
    for group in groups.values():
        group["teams"] = [
            {
                "name": team.name,
                "club": team.club.name if team.club_id else "",
                "captain": captains.get(team.pk),
                "roster": roster[team.pk],
            }
            for team in group["teams"]
        ]
    return {
        "format": FORMAT,
        "version": VERSION,
        "made_at": timezone.now().isoformat(timespec="seconds"),
        "league": {
            "name": league.name,
            "season": league.season,
            "rules": {
                "tie": league.tie,
                "tie_break": league.tie_break,
                "series_per_matchday": league.series_per_matchday,
                "rounds_per_series": league.rounds_per_series,
                "binding_days": league.binding_days,
                "lot_seed": league.lot_seed,
            },
        },
        "host": host.name,
        "groups": list(groups.values()),
        "match_days": [
            {
                "key": day.key,
                "group": day.group.name,
                "number": day.number,
                "date": day.date.isoformat(),
                "teams": sorted(team.name for team in day.teams.all()),
                "setzplan": setzplan([team.name for team in day.teams.all()], league.series_per_matchday),
            }
            for day in days
        ],
    }


def as_json(data: dict) -> bytes:
    return json.dumps(data, ensure_ascii=False, indent=1).encode("utf-8")
