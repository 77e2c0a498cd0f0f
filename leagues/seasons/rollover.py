"""A season rolled over into the next: the same league, groups, teams and rosters, with the
promoted and relegated teams moved to the group a level above or below.

The final table decides (leagues.results with this app's places): the first places of a
group by its promotion places go up, the last by its relegation places go down, to the one
group of the league at the level above (below). Where the league has no such group, or
more than one, the team stays in its group and is flagged: the manager moves it by hand
(or it leaves for another league). Only a finished season rolls over: every match day
played and checked; the refusal names the others. Hosts are not copied: their tokens are
secret, the manager makes new ones.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from core.name_checks import validate_name
from leagues.models import Group, League, LeagueTeam, MatchDay, RosterEntry
from leagues.results import season_tables
from skat.league import PROMOTION
from skat.rules import RuleError, gettext_noop

from .models import GroupPlaces, SeasonRules
from .services import group_places, rules_of

#: Unfinished match days a refusal names (the others counted).
SHOWN = 20
#: What the next season keeps of the old: its rules and whether its tables are published
#: (a published league stays published; its public page is not dark after the rollover).
KEPT = ("name", "tie", "tie_break", "series_per_matchday", "rounds_per_series", "binding_days", "published")


@dataclass
class Rollover:
    league: League
    #: "Team: group -> group (promoted)" lines, in the reader's language.
    moved: list[str] = field(default_factory=list)
    #: Teams that earned a move the league cannot make by itself, and why.
    flagged: list[str] = field(default_factory=list)


def unfinished(league: League) -> list[MatchDay]:
    """The league's match days not played or not checked by the manager."""
    return list(
        MatchDay.objects.filter(group__league=league)
        .filter(Q(tournament__isnull=True) | Q(checked_at__isnull=True))
        .select_related("group")
        .order_by("group__name", "number")
    )


def _check(league: League, season: str) -> None:
    season = season.strip()
    try:
        validate_name(season)
    except ValidationError:
        season = ""
    if not season or len(season) > 20:
        raise RuleError("season", gettext_noop("give the new season's name, e.g. 2027"), "league")
    if League.objects.filter(name__iexact=league.name, season=season).exists():
        raise RuleError(
            "season",
            gettext_noop("{league} has the season {season} already"),
            "league",
            league=league.name,
            season=season,
        )
    open_days = unfinished(league)
    if open_days:
        names = ", ".join(f"{d.group.name} {d.number}" for d in open_days[:SHOWN])
        names += f" (+{len(open_days) - SHOWN})" if len(open_days) > SHOWN else ""
        raise RuleError(
            "season",
            gettext_noop("the season is not finished: match days not played or not checked: {days}"),
            "league",
            days=names,
        )


def _targets(league: League) -> dict[int, tuple[Group, str | None, str | None]]:
    """group id -> (the group, and for promotion and relegation: the group's name a level above/below, or None)."""
    rows = group_places(league)
    levels = {g.pk: p.level for g, p, _n in rows}

    def one_at(level: int) -> str | None:
        found = [g.name for g, _p, _n in rows if levels[g.pk] == level]
        return found[0] if len(found) == 1 else None

    return {g.pk: (g, one_at(levels[g.pk] - 1), one_at(levels[g.pk] + 1)) for g, _p, _n in rows}


def rollover(league: League, season: str, *, user=None) -> Rollover:
    """Create the next season (refused, changing nothing, unless this one is finished)."""
    _check(league, season)
    season = season.strip()
    targets = _targets(league)
    tables = season_tables(league.groups.select_related("league"))
    rules = rules_of(league)
    with transaction.atomic():
        new = League.objects.create(season=season, **{name: getattr(league, name) for name in KEPT})
        new.managers.set(league.managers.all())
        if user is not None and user.is_authenticated and not user.is_superuser:
            new.managers.add(user)
        result = Rollover(new)
        groups = {g.name: Group.objects.create(league=new, name=g.name) for g, _up, _down in targets.values()}
        for old in GroupPlaces.objects.filter(group__league=league).select_related("group"):
            GroupPlaces.objects.create(
                group=groups[old.group.name], level=old.level, promotion=old.promotion, relegation=old.relegation
            )
        placed: dict[int, Group] = {}
        for table in tables:
            group, up, down = targets[table.group.pk]
            for place in table.table:
                team, zone = place.result.team, table.zones.get(place.place)
                placed[team.pk] = groups[group.name]
                if zone is None:
                    continue
                to = up if zone == PROMOTION else down
                what = _("promoted") if zone == PROMOTION else _("relegated")
                if to is None:
                    result.flagged.append(
                        _("%(team)s (%(what)s): the league has no single group a level above or below %(group)s")
                        % {"team": team.name, "what": what, "group": group.name}
                    )
                else:
                    placed[team.pk] = groups[to]
                    result.moved.append(f"{team.name}: {group.name} → {to} ({what})")
        _copy_teams(league, placed, groups, result)
        SeasonRules.objects.create(
            league=new,
            forfeit_fine=rules.forfeit_fine,
            individual_best=rules.individual_best,
            individual_minimum=rules.individual_minimum,
            individual_tie=rules.individual_tie,
            previous=league,
            carried="\n".join(result.moved + result.flagged),
        )
    return result


def _copy_teams(league: League, placed: dict[int, Group], groups: dict[str, Group], result: Rollover) -> None:
    """Every team into its new group (a name taken there already: it stays, flagged), rosters copied."""
    olds = list(
        LeagueTeam.objects.filter(group__league=league).select_related("group").order_by("group__name", "name")
    )
    taken: set[tuple[int, str]] = set()
    news = []
    for old in olds:
        group = placed.get(old.pk, groups[old.group.name])
        if (group.pk, old.name.lower()) in taken:
            group = groups[old.group.name]
            result.flagged.append(
                _("%(team)s: %(group)s has a team of this name already; it stays in its group")
                % {"team": old.name, "group": group.name}
            )
        taken.add((group.pk, old.name.lower()))
        news.append(LeagueTeam(group=group, name=old.name, club_id=old.club_id, captain_id=old.captain_id))
    LeagueTeam.objects.bulk_create(news)
    by_old = {old.pk: new for old, new in zip(olds, news, strict=True)}
    RosterEntry.objects.bulk_create(
        RosterEntry(team=by_old[e.team_id], player_id=e.player_id, position=e.position)
        for e in RosterEntry.objects.filter(team__group__league=league)
    )
