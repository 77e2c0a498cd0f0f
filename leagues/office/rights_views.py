"""The rights page: the office's administrator gives and takes league rights (no Django
admin needed). Only a superuser opens it; leagues.office.rights decides and records."""

from __future__ import annotations

from functools import wraps

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from leagues.forms import refusal
from skat.rules import RuleError

from . import rights
from .forms import GrantForm


def office_admin_required(view):
    """The office's administrator only: anyone else logged in is refused (403)."""

    @login_required
    @wraps(view)
    def wrapper(request, *args, **kwargs):
        if not rights.office_admin(request.user):
            raise PermissionDenied("Only the office's administrator grants league rights.")
        return view(request, *args, **kwargs)

    return wrapper


@office_admin_required
def rights_page(request: HttpRequest) -> HttpResponse:
    """Every account with its league rights, the form to grant one, and the record."""
    form = GrantForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid() and (saved := form.save(by=request.user)):
        user, created = saved
        text = _("%(name)s has the right now: %(right)s.") % {
            "name": user.get_username(),
            "right": dict(form.fields["right"].choices)[form.cleaned_data["right"]],
        }
        if created:
            text += " " + _("The account was created: give its holder the user name and the password.")
        messages.success(request, text)
        return redirect("leagueoffice:rights")
    context = {"form": form, "holders": rights.holders(), "history": rights.history(), "new": rights.NEW_LEAGUES}
    return render(request, "leagueoffice/rights.html", context, status=422 if form.errors else 200)


@require_POST
@office_admin_required
def revoke(request: HttpRequest, user_id: int) -> HttpResponse:
    user = get_object_or_404(get_user_model(), pk=user_id)
    try:
        rights.revoke(user, request.POST.get("right", ""), by=request.user)
    except RuleError as error:
        messages.error(request, refusal(error))
    else:
        messages.success(request, _("The right of %(name)s is withdrawn.") % {"name": user.get_username()})
    return redirect("leagueoffice:rights")
