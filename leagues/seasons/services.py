"""The end of a season's rules, deductions and forfeits: refused with the field named,
audited (who, when, why; a withdrawal keeps the record and adds its own reason), and
read back for the league tables in three queries (:func:`adjustments`)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from decimal import Decimal
from fractions import Fraction

from django.db import IntegrityError, transaction
from django.db.models import Count, Sum
from django.utils import timezone

from leagues.models import Group, League, LeagueTeam, MatchDay
from leagues.results import Adjustments
from skat.rules import RuleError, gettext_noop

from .models import Deduction, Forfeit, GroupPlaces, SeasonRules, Withdrawable


def adjustments(group_ids: Iterable[int], forfeits_only: bool = False) -> Adjustments:
    """Fills leagues.results.adjustments: the groups' forfeits, deductions and places in force
    (three queries; one with ``forfeits_only``, for a match day's result)."""
    ids = list(group_ids)
    forfeited = set(
        Forfeit.objects.filter(match_day__group__in=ids, withdrawn_at__isnull=True).values_list("match_day", "team")
    )
    if forfeits_only:
        return Adjustments(forfeited)
    deductions: dict[int, list[tuple[Fraction, str]]] = defaultdict(list)
    for team, points, reason in (
        Deduction.objects.filter(team__group__in=ids, withdrawn_at__isnull=True)
        .order_by("made_at", "pk")
        .values_list("team", "points", "reason")
    ):
        deductions[team].append((Fraction(points), reason))
    places = {
        group: (promotion, relegation)
        for group, promotion, relegation in GroupPlaces.objects.filter(group__in=ids).values_list(
            "group", "promotion", "relegation"
        )
    }
    return Adjustments(forfeited, dict(deductions), places)


def rules_of(league: League) -> SeasonRules:
    """The league's rules, or the defaults (not saved) before the manager first edits them."""
    return SeasonRules.objects.filter(league=league).first() or SeasonRules(league=league)


def group_places(league: League, group: Group | None = None) -> list[tuple[Group, GroupPlaces, int]]:
    """Each group (or only ``group``) with its places (defaults before they are set) and its number of teams."""
    groups = league.groups.annotate(team_count=Count("teams")).order_by("name")
    kept = GroupPlaces.objects.filter(group__league=league)
    if group is not None:
        groups, kept = groups.filter(pk=group.pk), kept.filter(group=group)
    places = {p.group_id: p for p in kept}
    return [(g, places.get(g.pk) or GroupPlaces(group=g), g.team_count) for g in groups]


def save_rules(league: League, rules: Mapping[str, object], places: Mapping[int, tuple[int, int, int]]) -> None:
    """Store the rules and the (level, promotion, relegation) places of the groups in
    ``places`` (others keep theirs); impossible places (more than the group's teams) and
    rules are refused, naming the field and group."""
    best, minimum = rules["individual_best"], rules["individual_minimum"]
    if best and minimum > best:  # type: ignore[operator]
        raise RuleError(
            "series needed",
            gettext_noop("{minimum} series needed are more than the {best} series counted"),
            "league",
            minimum=minimum,
            best=best,
        )
    rows = [row for row in group_places(league) if row[0].pk in places]
    for group, _places, teams in rows:
        _level, promotion, relegation = places[group.pk]
        if promotion + relegation > teams:
            raise RuleError(
                "promotion places",
                gettext_noop(
                    "{group}: {promotion} promotion and {relegation} relegation places are more than its {teams} teams"
                ),
                "league",
                group=group.name,
                promotion=promotion,
                relegation=relegation,
                teams=teams,
            )
    with transaction.atomic():
        SeasonRules.objects.update_or_create(league=league, defaults=dict(rules))
        for group, _places, _teams in rows:
            level, promotion, relegation = places[group.pk]
            GroupPlaces.objects.update_or_create(
                group=group, defaults={"level": level, "promotion": promotion, "relegation": relegation}
            )


def _reason(reason: str) -> str:
    reason = (reason or "").strip()
    if not reason:
        raise RuleError("reason", gettext_noop("say why: the reason is kept and shown with the table"), "league")
    return reason[:500]


def deduct(team: LeagueTeam, points: Decimal, reason: str, *, user) -> Deduction:
    """Take league points off the team's season (in halves), with the reason the table shows."""
    reason = _reason(reason)
    if points <= 0 or (points * 2) % 1:
        raise RuleError(
            "points",
            gettext_noop("a deduction is a positive number of points in halves, not {points}"),
            "league",
            points=points,
        )
    return Deduction.objects.create(team=team, points=points, reason=reason, made_by=user)


def forfeit(match_day: MatchDay, team: LeagueTeam, reason: str, *, user) -> Forfeit:
    """The team did not play the match day: it gets nothing, every other team the points
    (leagues.results), and it pays the league's forfeit fine as it is now."""
    reason = _reason(reason)
    if not match_day.teams.filter(pk=team.pk).exists():
        raise RuleError(
            "team",
            gettext_noop("{team} does not play match day {number}"),
            "league",
            team=team.name,
            number=match_day.number,
        )
    if match_day.binding:
        raise RuleError(
            "match day",
            gettext_noop("match day {number} is binding: its results can no longer change (5.5.3)"),
            "league",
            number=match_day.number,
        )
    fine = rules_of(match_day.group.league).forfeit_fine
    try:
        with transaction.atomic():
            return Forfeit.objects.create(match_day=match_day, team=team, fine=fine, reason=reason, made_by=user)
    except IntegrityError:
        raise RuleError(
            "team",
            gettext_noop("{team} has forfeited match day {number} already"),
            "league",
            team=team.name,
            number=match_day.number,
        ) from None


def withdraw(item: Withdrawable, reason: str, *, user) -> None:
    """Withdraw a deduction or forfeit: it no longer counts; it stays listed with both reasons."""
    reason = _reason(reason)
    if not item.in_force:
        raise RuleError("reason", gettext_noop("this entry is withdrawn already"), "league")
    if isinstance(item, Forfeit) and item.match_day.binding:
        raise RuleError(
            "match day",
            gettext_noop("match day {number} is binding: its results can no longer change (5.5.3)"),
            "league",
            number=item.match_day.number,
        )
    item.withdrawn_at, item.withdrawn_by, item.withdrawal = timezone.now(), user, reason
    item.save(update_fields=["withdrawn_at", "withdrawn_by", "withdrawal"])


def fines(group: Group) -> tuple[list[Forfeit], Decimal, Decimal]:
    """The group's forfeits with their fines (withdrawn ones too), the group's total in
    force and the league's."""
    found = list(
        Forfeit.objects.filter(match_day__group=group)
        .select_related("team", "match_day__group", "made_by", "withdrawn_by")
        .order_by("made_at", "pk")
    )
    league = Forfeit.objects.filter(match_day__group__league=group.league_id, withdrawn_at__isnull=True)
    total = league.aggregate(total=Sum("fine"))["total"] or Decimal("0")
    return found, sum((f.fine for f in found if f.in_force), Decimal("0")), total


def deductions(group: Group) -> list[Deduction]:
    return list(
        Deduction.objects.filter(team__group=group)
        .select_related("team__group", "made_by", "withdrawn_by")
        .order_by("made_at", "pk")
    )
