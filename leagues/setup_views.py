"""The league official's setup pages: a new league and its settings, its managers,
groups, teams with their rosters and captains, hosts and their tokens. A refused form is
shown again (status 422) with the field and the rule; nothing is written. leagues.setup
decides."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required, permission_required
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from skat.rules import RuleError

from . import setup
from .forms import refusal
from .league_page import league_page, league_page_url
from .models import Group, Host, League, LeagueTeam
from .permissions import manager_required
from .setup_forms import CaptainForm, LeagueForm, ManagerForm, NameForm, TeamForm, roster_formset


def _refuse(form, error: RuleError, fields: dict[str, str] | None = None) -> None:
    """Attach the refusal to the form's field it names (``fields`` maps rule fields to form fields)."""
    field = (fields or {}).get(error.field, error.field.replace(" ", "_"))
    if field in form.fields:
        form.add_error(field, refusal(error, named=False))  # shown under the field's label
    else:
        form.add_error(None, refusal(error))


@login_required
@permission_required("leagues.add_league", raise_exception=True)
def league_new(request: HttpRequest) -> HttpResponse:
    form = LeagueForm(request.POST if request.method == "POST" else None)
    if form.is_valid():
        try:
            league = setup.create_league(form.settings(), request.user)
        except RuleError as error:
            _refuse(form, error)
        else:
            messages.success(request, _("The league %(league)s is set up: add its groups next.") % {"league": league})
            return redirect("leagues:league", league.pk)
    status = 422 if form.is_bound else 200
    return render(request, "leagues/league_form.html", {"form": form}, status=status)


@manager_required
def league_settings(request: HttpRequest, league: League) -> HttpResponse:
    form = LeagueForm(request.POST if request.method == "POST" else None, instance=League.objects.get(pk=league.pk))
    if form.is_valid():
        try:
            setup.update_league(league, form.settings())
        except RuleError as error:
            _refuse(form, error)
        else:
            messages.success(request, _("The league's settings are saved."))
            return redirect("leagues:league", league.pk)
    status = 422 if form.is_bound else 200
    return render(request, "leagues/league_form.html", {"form": form, "league": league}, status=status)


@manager_required
def managers(request: HttpRequest, league: League) -> HttpResponse:
    """The league's managers, and the form that names a co-manager (he directs its match days too)."""
    form = ManagerForm(request.POST if request.method == "POST" else None, league=league)
    # save() answers None when a twin request got in between: the form then says so.
    if request.method == "POST" and form.is_valid() and (saved := form.save(by=request.user)):
        user, created = saved
        text = ngettext(
            "%(name)s is a league manager now, and directs the league's %(count)s match day.",
            "%(name)s is a league manager now, and directs the league's %(count)s match days.",
            form.match_days,
        ) % {"name": user.get_username(), "count": form.match_days}
        if created:
            text += " " + _("The account was created: give the league manager the user name and the password.")
        messages.success(request, text)
        return redirect("leagues:managers", league.pk)
    people = league.managers.order_by(get_user_model().USERNAME_FIELD)
    context = {"league": league, "form": form, "managers": people}
    return render(request, "leagues/managers.html", context, status=422 if form.errors else 200)


@require_POST
@manager_required
def manager_remove(request: HttpRequest, league: League, user_id: int) -> HttpResponse:
    user = get_object_or_404(league.managers.all(), pk=user_id)
    try:
        setup.remove_manager(league, user, by=request.user)
    except RuleError as error:
        messages.error(request, refusal(error))
        return redirect("leagues:managers", league.pk)
    text = _("%(name)s is no longer a league manager of this league, nor director of its match days.")
    messages.success(request, text % {"name": user.get_username()})
    if league.is_manager(request.user):
        return redirect("leagues:managers", league.pk)
    # He took himself out: the league's pages are closed to him now.
    return redirect("director:home")


@require_POST
@manager_required
def group_new(request: HttpRequest, league: League) -> HttpResponse:
    form = NameForm(request.POST, prefix="group")
    if form.is_valid():
        try:
            group = setup.save_group(league, form.cleaned_data["name"])
        except RuleError as error:
            _refuse(form, error)
        else:
            messages.success(request, _("The group %(group)s is set up: add its teams.") % {"group": group.name})
            return redirect(league_page_url(group))
    return league_page(request, league, group_form=form, status=422)


@manager_required
def group_edit(request: HttpRequest, league: League, group_id: int) -> HttpResponse:
    group = get_object_or_404(Group, pk=group_id, league=league)
    form = NameForm(request.POST if request.method == "POST" else None, initial={"name": group.name})
    if form.is_valid():
        try:
            setup.save_group(league, form.cleaned_data["name"], group)
        except RuleError as error:
            _refuse(form, error)
        else:
            messages.success(request, _("The group is renamed."))
            return redirect(league_page_url(group))
    context = {"league": league, "group": group, "form": form}
    return render(request, "leagues/group_form.html", context, status=422 if form.is_bound else 200)


@require_POST
@manager_required
def team_new(request: HttpRequest, league: League, group_id: int) -> HttpResponse:
    group = get_object_or_404(Group, pk=group_id, league=league)
    form = TeamForm(request.POST, prefix=f"team-{group.pk}")
    if form.is_valid():
        try:
            team = setup.save_team(group, form.cleaned_data["name"], form.cleaned_data["club"])
        except RuleError as error:
            _refuse(form, error)
        else:
            messages.success(request, _("The team %(team)s is set up: give its roster.") % {"team": team.name})
            return redirect("leagues:team_edit", league.pk, team.pk)
    return league_page(request, league, bound={("team", group.pk): form}, status=422)


@manager_required
def team_edit(request: HttpRequest, league: League, team_id: int) -> HttpResponse:
    """The team's name and club, its roster (positions 1-8) and its captain, saved together."""
    team = get_object_or_404(LeagueTeam.objects.select_related("group", "club"), pk=team_id, group__league=league)
    posted = request.POST if request.method == "POST" else None
    initial = {"name": team.name, "club": team.club.name if team.club_id else ""}
    form = TeamForm(posted, initial=initial)
    team_club = form.cleaned_data["club"] if posted is not None and form.is_valid() else ""
    roster = roster_formset(team, posted, team_club=team_club)
    captain = CaptainForm(posted, team=team)
    if posted is not None and all([form.is_valid(), roster.is_valid(), captain.is_valid()]):
        try:
            _save_team(team, form, roster, captain)
        except RuleError as error:
            _refuse_team(error, form, roster, captain)
        else:
            messages.success(request, _("The team %(team)s is saved.") % {"team": team.name})
            return redirect("leagues:team_edit", league.pk, team.pk)
    context = {"league": league, "team": team, "form": form, "roster": roster, "captain": captain}
    return render(request, "leagues/team_form.html", context, status=422 if posted is not None else 200)


def _save_team(team: LeagueTeam, form: TeamForm, roster, captain: CaptainForm) -> None:
    with transaction.atomic():
        setup.save_team(team.group, form.cleaned_data["name"], form.cleaned_data["club"], team)
        setup.save_roster(team, roster.rows(), captain.cleaned_data["captain"])


def _refuse_team(error: RuleError, form: TeamForm, roster, captain: CaptainForm) -> None:
    position = error.params.get("position")
    if position is not None:
        row = roster.forms[position - 1]
        row.add_error(
            "membership_number" if error.field == "membership_number" else "name", refusal(error, named=False)
        )
    elif error.field == "captain":
        captain.add_error("captain", refusal(error, named=False))
    else:
        _refuse(form, error)


def _hosts_page(request: HttpRequest, league: League, *, form=None, token=None, host=None, status=200):
    hosts = league.hosts.all()
    context = {"league": league, "hosts": hosts, "form": form or NameForm(), "token": token, "new_host": host}
    return render(request, "leagues/hosts.html", context, status=status)


@manager_required
def hosts(request: HttpRequest, league: League) -> HttpResponse:
    """The hosts: who may publish match days to this server, each with its own token."""
    return _hosts_page(request, league)


@require_POST
@manager_required
def host_new(request: HttpRequest, league: League) -> HttpResponse:
    form = NameForm(request.POST)
    if form.is_valid():
        try:
            host, token = setup.add_host(league, form.cleaned_data["name"])
        except RuleError as error:
            _refuse(form, error)
        else:
            # Shown once, on this answer only: the server keeps its SHA-256, never the token.
            return _hosts_page(request, league, token=token, host=host)
    return _hosts_page(request, league, form=form, status=422)


@require_POST
@manager_required
def renew_host_token(request: HttpRequest, league: League, host_id: int) -> HttpResponse:
    """A new token for the host, shown once on the hosts page: the old one stops working at once."""
    host = get_object_or_404(Host, pk=host_id, league=league)
    token = setup.replace_host_token(host)
    host.refresh_from_db()
    return _hosts_page(request, league, token=token, host=host)


@require_POST
@manager_required
def host_active(request: HttpRequest, league: League, host_id: int) -> HttpResponse:
    host = get_object_or_404(Host, pk=host_id, league=league)
    if request.POST.get("active") not in ("0", "1"):
        messages.error(request, _("active: send 0 to withdraw the token or 1 to allow it again; nothing changed."))
        return redirect("leagues:hosts", league.pk)
    active = request.POST["active"] == "1"
    setup.set_active(host, active)
    if active:
        messages.success(request, _("%(host)s may publish again with its token.") % {"host": host.name})
    else:
        messages.success(request, _("%(host)s's token is withdrawn: it can publish no more.") % {"host": host.name})
    return redirect("leagues:hosts", league.pk)
