"""The table link's sign-off: each player confirms the sheet with his PIN (5.5.3). The
token opens its own table and nothing else.

"Signed on paper" is not here: it confirms the sheet for everybody with no PIN, so only
the director or a referee marks it (referees' table page), never a holder of the link."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from scoring.forms import PinForm
from tournaments.lookups import names_by_seat, table_of_link

from . import confirm as signoff


@require_POST
def confirm(request: HttpRequest, token: str) -> HttpResponse:
    """One player confirms the sheet with the PIN from his own slip (5.5.3)."""
    table = table_of_link(token)
    form = PinForm(request.POST, players=names_by_seat(table))
    if not form.is_valid():
        # Shown above the sheet, away from the form: each error names its field.
        for name, errors in form.errors.items():
            for error in errors:
                messages.error(request, f"{form[name].label}: {error}")
        return redirect("table:sheet", token=token)
    try:
        state = signoff.confirm_seat(table, form.cleaned_data["seat"], form.cleaned_data["pin"])
    except signoff.SignOffRefused as refused:
        messages.error(request, refused.message)
    else:
        if state.confirmed:
            messages.success(request, _("Every player has confirmed: the sheet is final."))
        else:
            messages.success(request, _("Thank you, your confirmation is recorded."))
    return redirect("table:sheet", token=token)
