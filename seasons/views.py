"""The end of a season: the manager's page (rules, deductions, forfeits and fines, the
rollover) and the individual ranking, for the managers and, once the league's tables are
published, for everybody. Views only say what happened; the rules are the services'."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from core.paging import page_of
from leagues.forms import refusal
from leagues.models import League
from leagues.permissions import manager_required, published_league
from skat.rules import RuleError

from . import individual, rollover, services
from .forms import DeductionForm, ForfeitForm, RolloverForm, RulesForm, WithdrawForm
from .models import Deduction, Forfeit

FILES = ("pdf", "csv", "xlsx")


def _page(request: HttpRequest, league: League, *, status: int = 200, **bound) -> HttpResponse:
    """The season-end page, with a refused form shown again (``bound``: rules, deduction, forfeit, rollover)."""
    rules = services.rules_of(league)
    forfeits, fined = services.fines(league)
    context = {
        "league": league,
        "rules": rules,
        "rules_form": bound.get("rules") or RulesForm(instance=rules, groups=services.group_places(league)),
        "deduction_form": bound.get("deduction") or DeductionForm(league=league),
        "forfeit_form": bound.get("forfeit") or ForfeitForm(league=league),
        "rollover_form": bound.get("rollover") or RolloverForm(),
        "withdraw_form": WithdrawForm(),
        "deductions": services.deductions(league),
        "forfeits": forfeits,
        "fined": fined,
        "unfinished": rollover.unfinished(league),
    }
    return render(request, "seasons/end.html", context, status=status)


@manager_required
def end(request: HttpRequest, league: League) -> HttpResponse:
    return _page(request, league)


def _refused(form, error: RuleError) -> None:
    form.add_error(error.field if error.field in form.fields else None, refusal(error))


@require_POST
@manager_required
def rules(request: HttpRequest, league: League) -> HttpResponse:
    form = RulesForm(request.POST, instance=services.rules_of(league), groups=services.group_places(league))
    if form.is_valid():
        data = {name: form.cleaned_data[name] for name in form.Meta.fields}
        try:
            services.save_rules(league, data, form.places())
        except RuleError as error:
            _refused(form, error)
        else:
            messages.success(request, _("The season's rules are saved."))
            return redirect("seasons:end", league.pk)
    return _page(request, league, rules=form, status=422)


@require_POST
@manager_required
def deduction_new(request: HttpRequest, league: League) -> HttpResponse:
    form = DeductionForm(request.POST, league=league)
    if form.is_valid():
        data = form.cleaned_data
        try:
            services.deduct(data["team"], data["points"], data["reason"], user=request.user)
        except RuleError as error:
            _refused(form, error)
        else:
            messages.success(request, _("The points are deducted from %(team)s.") % {"team": data["team"].name})
            return redirect("seasons:end", league.pk)
    return _page(request, league, deduction=form, status=422)


@require_POST
@manager_required
def forfeit_new(request: HttpRequest, league: League) -> HttpResponse:
    form = ForfeitForm(request.POST, league=league)
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
            return redirect("seasons:end", league.pk)
    return _page(request, league, forfeit=form, status=422)


def _withdraw(request: HttpRequest, league: League, item) -> HttpResponse:
    form = WithdrawForm(request.POST)
    try:
        services.withdraw(item, form.data.get("reason", ""), user=request.user)
    except RuleError as error:
        messages.error(request, refusal(error))
    else:
        messages.success(request, _("Withdrawn; it stays listed with both reasons."))
    return redirect("seasons:end", league.pk)


@require_POST
@manager_required
def deduction_withdraw(request: HttpRequest, league: League, deduction_id: int) -> HttpResponse:
    return _withdraw(request, league, get_object_or_404(Deduction, pk=deduction_id, team__group__league=league))


@require_POST
@manager_required
def forfeit_withdraw(request: HttpRequest, league: League, forfeit_id: int) -> HttpResponse:
    item = get_object_or_404(
        Forfeit.objects.select_related("match_day"), pk=forfeit_id, match_day__group__league=league
    )
    return _withdraw(request, league, item)


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
