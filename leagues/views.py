"""The league manager's pages: the league, a match day (line-ups, substitutions, result,
corrections, check, binding, publications) and the downloads (the match report PDF, the
season as XLSX or CSV). Views only say what happened; the rules are the services'."""

from __future__ import annotations

import io

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from core.filenames import Name, file_name
from core.tabular import CSV_TYPE, XLSX_TYPE
from skat.rules import RuleError
from tournaments.models import Table

from . import checks, lineups
from .exports import SHEETS, league_season_csv, league_season_xlsx
from .forms import CheckForm, LineUpForm, MatchDayForm, RemovePublicationForm, SubstitutionForm, refusal
from .league_page import league_page
from .models import Group, League, LeagueTeam, MatchDay, Publication
from .permissions import manager_required, match_day_manager_required
from .public_views import season_page
from .results import match_day_result


@manager_required
def league_detail(request: HttpRequest, league) -> HttpResponse:
    return league_page(request, league)


@require_POST
@manager_required
def match_day_new(request: HttpRequest, league, group_id: int) -> HttpResponse:
    group = get_object_or_404(Group, pk=group_id, league=league)
    form = MatchDayForm(request.POST, group=group, prefix=f"group-{group.pk}")
    if form.is_valid():
        try:
            match_day = lineups.create_match_day(group, **form.cleaned_data)
        except RuleError as error:
            named = error.field not in form.fields  # else shown under the field's own label
            form.add_error(None if named else error.field, refusal(error, named=named))
        else:
            messages.success(
                request, _("Match day %(number)s is set up: give each team's line-up.") % {"number": match_day.number}
            )
            return redirect("leagues:match_day", match_day.pk)
    return league_page(request, league, bound={("match_day", group.pk): form}, status=422)


def _lineup_forms(match_day: MatchDay, teams) -> dict:
    """Each team's line-up form showing its saved line-up (none before the first draw: no forms)."""
    return {team.pk: LineUpForm(team=team, saved=lineups.saved_line_up(match_day, team)) for team in teams}


def _match_day_page(request, match_day: MatchDay, *, lineup_forms=None, substitution_form=None, status=200):
    tournament = match_day.tournament
    teams = list(match_day.teams.all())
    drawn = tournament.series.count() if tournament else 0
    if lineup_forms is None and drawn == 0:  # a drawn match day shows no line-up forms: none read
        lineup_forms = _lineup_forms(match_day, teams)
    shows_lineups = drawn == 0
    shows_substitution = bool(tournament) and 0 < drawn < tournament.series_count
    # A refused form the page no longer shows (the draw came between: a line-up after it,
    # a substitution after the last series was drawn) says its refusal above the page.
    for refused, shown in ((lineup_forms, shows_lineups), ({0: substitution_form}, shows_substitution)):
        for form in (refused or {}).values():
            if form is not None and form.errors and not shown:
                for errors in form.errors.values():
                    for error in errors:
                        messages.error(request, error)
    tables = (
        Table.objects.filter(series__tournament=tournament)
        .select_related("series")
        .order_by("series__number", "number")
        if tournament
        else []
    )
    context = {
        "match_day": match_day,
        "league": match_day.group.league,
        "tournament": tournament,
        "result": match_day_result(match_day),
        "line_ups": lineups.line_ups(match_day),
        "roster_warnings": checks.roster_warnings(match_day),
        "lineup_forms": [lineup_forms[team.pk] for team in teams] if shows_lineups else [],
        "substitution_form": (substitution_form or SubstitutionForm(match_day=match_day))
        if shows_substitution
        else None,
        "substitutions": match_day.substitutions.select_related("team", "player_in", "player_out"),
        "tables": tables,
        "corrections": checks.corrections(match_day),
        "events": match_day.events.select_related("user"),
        "check_form": CheckForm(),
        "publications": Publication.objects.filter(match_day=match_day).select_related("host", "rejected_by"),
        "remove_form": RemovePublicationForm(),
        "staff": True,
    }
    return render(request, "leagues/match_day.html", context, status=status)


@match_day_manager_required
def match_day_detail(request: HttpRequest, match_day: MatchDay) -> HttpResponse:
    return _match_day_page(request, match_day)


@require_POST
@match_day_manager_required
def line_up(request: HttpRequest, match_day: MatchDay, team_id: int) -> HttpResponse:
    team = get_object_or_404(LeagueTeam, pk=team_id, match_days=match_day)
    form = LineUpForm(request.POST, team=team)
    if form.is_valid():
        players = sorted(form.cleaned_data["players"], key=lambda p: p.pk)
        try:
            changed = lineups.set_line_up(
                match_day, team, players, user=request.user, expected=form.cleaned_data["saved"]
            )
        except RuleError as error:
            form.add_error("players", refusal(error))
        else:
            if changed:
                messages.success(request, _("The line-up of %(team)s is set.") % {"team": team.name})
            else:
                messages.info(request, _("The line-up of %(team)s is saved as it was.") % {"team": team.name})
            return redirect("leagues:match_day", match_day.pk)
    forms = _lineup_forms(match_day, match_day.teams.all())
    # The refused form shows the line-up saved now, so the manager sees what he would replace.
    form.saved_players = lineups.saved_line_up(match_day, team)
    form.data = form.data.copy()
    form.data[form.add_prefix("saved")] = ",".join(str(p.pk) for p in form.saved_players)
    forms[team.pk] = form
    return _match_day_page(request, match_day, lineup_forms=forms, status=422)


@require_POST
@match_day_manager_required
def substitute(request: HttpRequest, match_day: MatchDay) -> HttpResponse:
    form = SubstitutionForm(request.POST, match_day=match_day)
    if form.is_valid():
        data = form.cleaned_data
        try:
            done = lineups.substitute(
                match_day, data["team"], data["player_out"], data["player_in"], user=request.user
            )
        except RuleError as error:
            form.add_error(error.field if error.field in form.fields else None, refusal(error))
        else:
            messages.success(
                request,
                _("%(in)s plays for %(out)s from series %(series)s.")
                % {"in": done.player_in.name, "out": done.player_out.name, "series": done.before_series},
            )
            return redirect("leagues:match_day", match_day.pk)
    return _match_day_page(request, match_day, substitution_form=form, status=422)


@require_POST
@match_day_manager_required
def check(request: HttpRequest, match_day: MatchDay) -> HttpResponse:
    form = CheckForm(request.POST)
    note = form.cleaned_data["note"] if form.is_valid() else ""
    try:
        checks.check(match_day, user=request.user, note=note)
    except RuleError as error:
        messages.error(request, refusal(error))
    else:
        messages.success(request, _("The match day is checked."))
    return redirect("leagues:match_day", match_day.pk)


@require_POST
@match_day_manager_required
def binding(request: HttpRequest, match_day: MatchDay) -> HttpResponse:
    try:
        checks.make_binding(match_day, user=request.user)
    except RuleError as error:
        messages.error(request, refusal(error))
    else:
        messages.success(request, _("The match day is binding."))
    return redirect("leagues:match_day", match_day.pk)


@require_POST
@match_day_manager_required
def remove_publication(request: HttpRequest, match_day: MatchDay, publication_id: int) -> HttpResponse:
    publication = get_object_or_404(Publication, pk=publication_id, match_day=match_day)
    form = RemovePublicationForm(request.POST)
    try:
        if not form.is_valid():
            raise RuleError("reason", "say why the publication is removed", "league")
        checks.remove_publication(publication, user=request.user, reason=form.cleaned_data["reason"])
    except RuleError as error:
        messages.error(request, refusal(error))
    else:
        messages.success(request, _("The publication is removed; its results no longer count."))
    return redirect("leagues:match_day", match_day.pk)


@manager_required
def season_table(request: HttpRequest, league) -> HttpResponse:
    """The season table as the public will see it (also before it is published)."""
    return season_page(request, league, staff=True)


# Downloads


@manager_required
def season_xlsx(request: HttpRequest, league: League) -> HttpResponse:
    out = io.BytesIO()
    league_season_xlsx(league, out)
    response = HttpResponse(out.getvalue(), content_type=XLSX_TYPE)
    filename = file_name(Name(league), suffix=".xlsx", fallback="league")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@manager_required
def season_csv(request: HttpRequest, league: League, sheet: str) -> HttpResponse:
    name = {slugify(title): title for title in SHEETS}.get(sheet)
    if name is None:
        raise Http404("No such sheet.")
    out = io.StringIO()
    league_season_csv(league, name, out)
    response = HttpResponse(out.getvalue().encode("utf-8"), content_type=CSV_TYPE)
    filename = file_name(Name(league), sheet, suffix=".csv", fallback="league")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
