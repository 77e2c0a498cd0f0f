"""The match-day package: what the league server gives a host's hall, version 1.

A JSON object with a format marker and a version, so a hall refuses what it cannot read
(an older office, another program's file) instead of guessing::

    {"format": "skat-office/match-day-package", "version": 1, "made_at": "...",
     "league": {"name": "...", "season": "2026",
                "rules": {"tie": "split", "tie_break": "lot", "series_per_matchday": 3,
                          "rounds_per_series": 12, "binding_days": 14, "lot_seed": 11}},
     "host": "SC Herz Dame",
     "groups": [{"name": "Staffel 1", "teams": [{"name": "...", "club": "...", "captain": 1,
                 "roster": [{"position": 1, "name": "...", "membership_number": "", "club": "..."}]}]}],
     "match_days": [{"key": "<32 hex digits>", "group": "Staffel 1", "number": 1, "date": "2026-09-05",
                     "teams": ["...", ...], "setzplan": [[[["<team>", 1], ...], ...], ...] or null}]}

The rules are the league's table (its fields), never constants of the hall. The Setzplan is
per series and table the seats as (team, number in the line-up, 1 first): the hall seats by
its own engine and refuses a package whose plan differs (another version of the plan).
:func:`parse` checks every field after the JSON guard (:mod:`core.jsonfiles`) and refuses
with the field's path and the rule ("groups[0].teams[1].roster[2].position: ...").
"""

from __future__ import annotations

import datetime
import re
from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from core.jsonfiles import KB, JsonFileError, Limits, found, is_whole, read_json, version_problem
from core.name_checks import name_problem
from leagues.models import POSITIONS, REGULARS, League
from skat.setzplan import seating_plan

FORMAT = "skat-office/match-day-package"
VERSION = 1
#: A package of a host's season (a few match days of four teams of eight) is about 10 KB.
LIMITS = Limits(size=256 * KB, depth=8, values=20_000, text=200)
MOST_GROUPS = 20
MOST_TEAMS = 40
MOST_MATCH_DAYS = 100
MOST_MATCH_DAY_TEAMS = 12
KEY = re.compile(r"[0-9a-f]{32}")
RULE_RANGES = {
    "series_per_matchday": (1, 6),
    "rounds_per_series": (1, 30),
    "binding_days": (0, 366),
    "lot_seed": (0, 2**31 - 1),
}


class PackageError(ValueError):
    """The package breaks its schema: the message names the field and the rule."""


@dataclass(frozen=True)
class RosterLine:
    position: int
    name: str
    membership_number: str
    club: str


@dataclass(frozen=True)
class TeamData:
    name: str
    club: str
    captain: int | None
    roster: tuple[RosterLine, ...]


@dataclass(frozen=True)
class GroupData:
    name: str
    teams: tuple[TeamData, ...]


@dataclass(frozen=True)
class MatchDayData:
    key: str
    group: str
    number: int
    date: datetime.date
    teams: tuple[str, ...]
    setzplan: list | None


@dataclass(frozen=True)
class Package:
    league: str
    season: str
    rules: dict
    host: str
    groups: tuple[GroupData, ...]
    match_days: tuple[MatchDayData, ...]


def _refuse(path: str, rule: str) -> PackageError:
    return PackageError(_("%(field)s: %(rule)s") % {"field": path, "rule": rule})


def _object(value: object, path: str, required: tuple[str, ...], optional: tuple[str, ...] = ()) -> dict:
    if not isinstance(value, dict):
        raise _refuse(path or "file", _("must be an object (%(found)s)") % {"found": found(value)})
    for key in required:
        if key not in value:
            raise _refuse(f"{path}.{key}" if path else key, _("is missing"))
    for key in value:
        if key not in required and key not in optional:
            raise _refuse(f"{path}.{key}" if path else key, _("is no field of a match-day package (version 1)"))
    return value


def _list(value: object, path: str, most: int, least: int = 0) -> list:
    if not isinstance(value, list):
        raise _refuse(path, _("must be a list (%(found)s)") % {"found": found(value)})
    if not least <= len(value) <= most:
        counted = ngettext("must have %(least)s to %(most)s entry", "must have %(least)s to %(most)s entries", most)
        raise _refuse(path, counted % {"least": least, "most": most})
    return value


def _text(value: object, path: str, most: int, *, blank: bool = False, name: bool = True) -> str:
    if not isinstance(value, str):
        raise _refuse(path, _("must be a text (%(found)s)") % {"found": found(value)})
    value = value.strip()
    if not value and not blank:
        raise _refuse(path, _("must not be empty"))
    if len(value) > most:
        raise _refuse(path, _("is longer than %(most)s characters") % {"most": most})
    if value and name and (problem := name_problem(value)):
        raise _refuse(path, problem)
    return value


def _number(value: object, path: str, least: int, most: int) -> int:
    if not is_whole(value):
        raise _refuse(path, _("must be a whole number (%(found)s)") % {"found": found(value)})
    if not least <= value <= most:
        raise _refuse(path, _("must be from %(least)s to %(most)s") % {"least": least, "most": most})
    return value


def parse(data: object) -> Package:
    """The package, every field checked; :class:`PackageError` for the first one that is wrong."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        expected = _("this is not a match-day package of the Skat office (expected “%(f)s”)") % {"f": FORMAT}
        raise _refuse("format", expected)
    if "version" not in data:
        raise _refuse("version", _("is missing"))
    if problem := version_problem(data["version"], VERSION):
        raise _refuse("version", problem)
    _object(data, "", ("format", "version", "league", "host", "groups", "match_days"), ("made_at",))
    league = _object(data["league"], "league", ("name", "season", "rules"))
    rules = _object(league["rules"], "league.rules", ("tie", "tie_break", *RULE_RANGES))
    checked = {}
    for field, choices in (("tie", League.Tie.values), ("tie_break", League.TieBreak.values)):
        if not isinstance(rules[field], str) or rules[field] not in choices:
            raise _refuse(f"league.rules.{field}", _("must be one of %(choices)s") % {"choices": ", ".join(choices)})
        checked[field] = rules[field]
    for field, (least, most) in RULE_RANGES.items():
        checked[field] = _number(rules[field], f"league.rules.{field}", least, most)
    groups = tuple(_group(g, f"groups[{i}]") for i, g in enumerate(_list(data["groups"], "groups", MOST_GROUPS, 1)))
    teams = {(g.name.casefold(), t.name.casefold()) for g in groups for t in g.teams}
    days = _list(data["match_days"], "match_days", MOST_MATCH_DAYS, 1)
    match_days = tuple(_match_day(d, f"match_days[{i}]", teams) for i, d in enumerate(days))
    if len({day.key for day in match_days}) < len(match_days):
        raise _refuse("match_days", _("a key appears twice"))
    return Package(
        league=_text(league["name"], "league.name", 120),
        season=_text(league["season"], "league.season", 20),
        rules=checked,
        host=_text(data["host"], "host", 120),
        groups=groups,
        match_days=match_days,
    )


def _group(value: object, path: str) -> GroupData:
    group = _object(value, path, ("name", "teams"))
    teams = tuple(
        _team(t, f"{path}.teams[{i}]") for i, t in enumerate(_list(group["teams"], f"{path}.teams", MOST_TEAMS, 1))
    )
    if len({t.name.casefold() for t in teams}) < len(teams):
        raise _refuse(f"{path}.teams", _("a team's name appears twice"))
    return GroupData(_text(group["name"], f"{path}.name", 80), teams)


def _team(value: object, path: str) -> TeamData:
    team = _object(value, path, ("name", "club", "captain", "roster"))
    roster = tuple(
        _line(line, f"{path}.roster[{i}]") for i, line in enumerate(_list(team["roster"], f"{path}.roster", POSITIONS))
    )
    if len({line.position for line in roster}) < len(roster):
        raise _refuse(f"{path}.roster", _("a position appears twice"))
    captain = team["captain"]
    if captain is not None:
        captain = _number(captain, f"{path}.captain", 1, POSITIONS)
    return TeamData(
        _text(team["name"], f"{path}.name", 120), _text(team["club"], f"{path}.club", 120, blank=True), captain, roster
    )


def _line(value: object, path: str) -> RosterLine:
    line = _object(value, path, ("position", "name", "membership_number", "club"))
    return RosterLine(
        position=_number(line["position"], f"{path}.position", 1, POSITIONS),
        name=_text(line["name"], f"{path}.name", 120),
        membership_number=_text(line["membership_number"], f"{path}.membership_number", 32, blank=True),
        club=_text(line["club"], f"{path}.club", 120, blank=True),
    )


def _match_day(value: object, path: str, teams: set[tuple[str, str]]) -> MatchDayData:
    day = _object(value, path, ("key", "group", "number", "date", "teams", "setzplan"))
    key = day["key"]
    if not isinstance(key, str) or not KEY.fullmatch(key):
        raise _refuse(f"{path}.key", _("must be 32 hex digits (the league server's key of the match day)"))
    group = _text(day["group"], f"{path}.group", 80)
    names = tuple(
        _text(name, f"{path}.teams[{i}]", 120)
        for i, name in enumerate(_list(day["teams"], f"{path}.teams", MOST_MATCH_DAY_TEAMS, 2))
    )
    for i, name in enumerate(names):
        if (group.casefold(), name.casefold()) not in teams:
            raise _refuse(
                f"{path}.teams[{i}]",
                _("%(team)s is no team of %(group)s in the package") % {"team": name, "group": group},
            )
    if len({name.casefold() for name in names}) < len(names):
        raise _refuse(f"{path}.teams", _("a team appears twice"))
    raw = day["date"]
    try:
        date = datetime.date.fromisoformat(raw) if isinstance(raw, str) and len(raw) == 10 else None
    except ValueError:
        date = None
    if date is None:
        raise _refuse(f"{path}.date", _("must be a date as YYYY-MM-DD"))
    plan = day["setzplan"]
    if plan is not None and not isinstance(plan, list):
        raise _refuse(f"{path}.setzplan", _("must be a list or null"))
    return MatchDayData(key, group, _number(day["number"], f"{path}.number", 1, 999), date, names, plan)


def setzplan(teams: list[str], series: int) -> list | None:
    """The fixed seating plan of a match day of these teams with full line-ups, as the
    package writes it: per series and table, [team, number in the line-up (1 first)].
    The teams in name order, as the draw numbers them (:func:`leagues.lineups.planned_seating`)."""
    ordered = sorted(teams)
    if not 1 <= len(ordered) <= 4:
        return None
    plan = seating_plan([REGULARS] * len(ordered), series)
    if plan is None:
        return None
    return [[[[ordered[team], number + 1] for team, number in table] for table in tables] for tables in plan]


def read_package(source) -> Package:
    """The package in ``source`` (bytes or a binary file, an upload), read through the JSON
    guard under :data:`LIMITS` before any field is looked at."""
    try:
        data = read_json(source, LIMITS)
    except JsonFileError as error:
        raise _refuse("file", str(error)) from None
    return parse(data)
