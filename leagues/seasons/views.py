"""The end of a season: the manager's page (rules, deductions, forfeits and fines, the
rollover) and the individual ranking, for the managers and, once the league's tables are
published, for everybody. Views only say what happened; the rules are the services'."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from core.paging import page_of
from leagues.forms import refusal
from leagues.models import Group, League
from leagues.permissions import manager_required, published_league
from leagues.public_views import season_page
from skat.rules import RuleError

from . import individual, rollover, services
from .forms import DeductionForm, ForfeitForm, RolloverForm, RulesForm, WithdrawForm
from .models import Deduction, Forfeit

FILES = ("pdf", "csv", "xlsx")


#: Match days named on the page as not finished; the rest counted.
UNFINISHED_SHOWN = 20


def _group(request: HttpRequest, league: League, groups: list[Group] | None = None) -> Group | None:
    """The group the page works on (``?group=``; else the first by name): a league of
    a thousand teams is handled a group at a time, so no page lists them all."""
    groups = list(league.groups.order_by("name")) if groups is None else groups
    chosen = request.GET.get("group", "")
    found = next((g for g in groups if str(g.pk) == chosen), None)
    return found or (groups[0] if groups else None)


def _back(league: League, group: Group | None) -> HttpResponse:
    url = reverse("seasons:end", args=[league.pk])
    return redirect(f"{url}?group={group.pk}" if group else url)


def _page(request: HttpRequest, league: League, *, status: int = 200, **bound) -> HttpResponse:
    """The season-end page of one group, with a refused form shown again (``bound``:
    rules, deduction, forfeit, rollover)."""
    groups = list(league.groups.order_by("name"))
    group = _group(request, league, groups)
    rules = services.rules_of(league)
    unfinished = rollover.unfinished(league)
    context = {
        "league": league,
        "group": group,
        "groups": groups,
        "rules": rules,
        "rollover_form": bound.get("rollover") or RolloverForm(),
        "unfinished": unfinished[:UNFINISHED_SHOWN],
        "unfinished_more": max(0, len(unfinished) - UNFINISHED_SHOWN),
    }
    if group is not None:
        forfeits, fined, league_fined = services.fines(group)
        places = services.group_places(league, group)
        context |= {
            "rules_form": bound.get("rules") or RulesForm(instance=rules, groups=places),
            "deduction_form": bound.get("deduction") or DeductionForm(group=group),
            "forfeit_form": bound.get("forfeit") or ForfeitForm(group=group),
            "deductions": services.deductions(group),
            "forfeits": forfeits,
            "fined": fined,
            "league_fined": league_fined,
        }
    return render(request, "seasons/end.html", context, status=status)


@manager_required
def end(request: HttpRequest, league: League) -> HttpResponse:
    return _page(request, league)


def _refused(form, error: RuleError) -> None:
    """The refusal under its field, whose label the error list puts first (not
    "Team: team: ..."); a refusal of no field of the form names its field itself."""
    if error.field in form.fields:
        form.add_error(error.field, refusal(error, named=False))
    else:
        form.add_error(None, refusal(error))


def _chosen(request: HttpRequest, league: League) -> Group:
    group = _group(request, league)
    if group is None:
        raise Http404("The league has no group yet.")
    return group


@require_POST
@manager_required
def rules(request: HttpRequest, league: League) -> HttpResponse:
    group = _chosen(request, league)
    places = services.group_places(league, group)
    form = RulesForm(request.POST, instance=services.rules_of(league), groups=places)
    if form.is_valid():
        data = {name: form.cleaned_data[name] for name in form.Meta.fields}
        try:
            services.save_rules(league, data, form.places())
        except RuleError as error:
            _refused(form, error)
        else:
            messages.success(request, _("The season's rules are saved."))
            return _back(league, group)
    return _page(request, league, rules=form, status=422)


@require_POST
@manager_required
def deduction_new(request: HttpRequest, league: League) -> HttpResponse:
    group = _chosen(request, league)
    form = DeductionForm(request.POST, group=group)
    if form.is_valid():
        data = form.cleaned_data
        try:
            services.deduct(data["team"], data["points"], data["reason"], user=request.user)
        except RuleError as error:
            _refused(form, error)
        else:
            messages.success(request, _("The points are deducted from %(team)s.") % {"team": data["team"].name})
            return _back(league, group)
    return _page(request, league, deduction=form, status=422)


@require_POST
@manager_required
def forfeit_new(request: HttpRequest, league: League) -> HttpResponse:
    group = _chosen(request, league)
    form = ForfeitForm(request.POST, group=group)
    if form.is_valid():
        data = form.cleaned_data
        try:
            done = services.forfeit(data["match_day"], data["team"], data["reason"], user=request.user)
        except RuleError as error:
            _refused(form, error)
        else:
            messages.success(
                request,
                _("%(team)s forfeited match day %(number)s; fine %(fine)s.")
                % {"team": done.team.name, "number": done.match_day.number, "fine": done.fine},
            )
            return _back(league, group)
    return _page(request, league, forfeit=form, status=422)


def _withdraw(request: HttpRequest, league: League, item, group: Group) -> HttpResponse:
    form = WithdrawForm(request.POST)
    if not form.is_valid():  # its field's checks too (a NUL byte, PostgreSQL's 500), not only the service's
        for error in form.errors.get("reason", []):
            messages.error(request, f"{form['reason'].label}: {error}")
        return _back(league, group)
    try:
        services.withdraw(item, form.cleaned_data["reason"], user=request.user)
    except RuleError as error:
        messages.error(request, refusal(error))
    else:
        messages.success(request, _("Withdrawn; it stays listed with both reasons."))
    return _back(league, group)


@require_POST
@manager_required
def deduction_withdraw(request: HttpRequest, league: League, deduction_id: int) -> HttpResponse:
    item = get_object_or_404(
        Deduction.objects.select_related("team__group"), pk=deduction_id, team__group__league=league
    )
    return _withdraw(request, league, item, item.team.group)


@require_POST
@manager_required
def forfeit_withdraw(request: HttpRequest, league: League, forfeit_id: int) -> HttpResponse:
    item = get_object_or_404(
        Forfeit.objects.select_related("match_day__group"), pk=forfeit_id, match_day__group__league=league
    )
    return _withdraw(request, league, item, item.match_day.group)


@require_POST
@manager_required
def roll_over(request: HttpRequest, league: League) -> HttpResponse:
    form = RolloverForm(request.POST)
    if form.is_valid():
        try:
            done = rollover.rollover(league, form.cleaned_data["season"], user=request.user)
        except RuleError as error:
            _refused(form, error)
        else:
            messages.success(request, _("The season %(season)s is set up.") % {"season": done.league.season})
            for line in done.flagged:
                messages.warning(request, line)
            return redirect("seasons:end", done.league.pk)
    return _page(request, league, rollover=form, status=422)


# The cross table of match days (Kreuztabelle)


def _cross(request: HttpRequest, league: League, *, staff: bool) -> HttpResponse:
    """The cross table of the groups the page shows, as the season table shows them: a
    national league's page ranks one group, not all 63."""
    return season_page(request, league, staff=staff, template="seasons/cross.html")


@manager_required
def cross(request: HttpRequest, league: League) -> HttpResponse:
    return _cross(request, league, staff=True)


def public_cross(request: HttpRequest, league_id: int) -> HttpResponse:
    return _cross(request, published_league(league_id, request.user), staff=False)


# The individual ranking


def _players(request: HttpRequest, league: League, *, staff: bool) -> HttpResponse:
    ranking = individual.individual_ranking(league)
    context = {
        "league": league,
        "page": page_of(request, ranking.lines),
        "as_of": ranking.as_of,
        "rules": services.rules_of(league),
        "staff": staff,
    }
    return render(request, "seasons/players.html", context)


def _file(league: League, kind: str) -> HttpResponse:
    if kind not in FILES:
        raise Http404("No such file.")
    return individual.file_response(league, kind)


@manager_required
def players(request: HttpRequest, league: League) -> HttpResponse:
    return _players(request, league, staff=True)


@manager_required
def players_file(request: HttpRequest, league: League, kind: str) -> HttpResponse:
    return _file(league, kind)


def public_players(request: HttpRequest, league_id: int) -> HttpResponse:
    return _players(request, published_league(league_id, request.user), staff=False)


def public_players_file(request: HttpRequest, league_id: int, kind: str) -> HttpResponse:
    return _file(published_league(league_id, request.user), kind)
