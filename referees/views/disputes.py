"""A dispute's pages: raised at the table link or by a referee, then decided or withdrawn
(4.5.10). The rules are :mod:`referees.disputes`'; these pages show forms and messages."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from tournaments.lookups import table_of_link
from tournaments.models import Tournament

from .. import disputes
from ..forms import DecideForm, DisputeForm, TableDisputeForm, WithdrawForm
from ..models import Dispute
from ..permissions import referee_required

# --- The table link: raise a dispute -------------------------------------------------------


@require_http_methods(["GET", "POST"])
def table_dispute(request: HttpRequest, token: str) -> HttpResponse:
    """4.5.10: a claim is addressed at once; the table calls a referee. Only its own table."""
    table = table_of_link(token)
    form = TableDisputeForm(request.POST if request.method == "POST" else None, table=table)
    if request.method == "POST" and form.is_valid():
        try:
            disputes.raise_dispute(
                table,
                game=form.cleaned_data.get("game"),
                description=form.cleaned_data["description"],
                raised_by=_("%(name)s (table link)") % {"name": form.cleaned_data["name"]},
            )
        except disputes.DisputeRefused as refused:  # another post took the last place meanwhile
            form.add_error(None, str(refused))
        else:
            messages.success(request, _("The dispute is recorded; a referee will come to your table."))
            return redirect("table:sheet", token=token)
    table_disputes = Dispute.objects.filter(table=table).select_related("game").order_by("-raised_at")
    return render(
        request,
        "referees/table_dispute.html",
        {"table": table, "series": table.series, "form": form, "disputes": table_disputes},
        status=422 if form.errors else 200,
    )


# --- Referees' pages ----------------------------------------------------------------------


@referee_required
def dispute_new(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """A director or referee records a dispute about any table of the tournament."""
    initial = {key: request.GET.get(key) for key in ("series", "table", "deal")}
    form = DisputeForm(request.POST if request.method == "POST" else None, tournament=tournament, initial=initial)
    if request.method == "POST" and form.is_valid():
        dispute = disputes.raise_dispute(
            form.cleaned_data["table"],
            game=form.cleaned_data.get("game"),
            description=form.cleaned_data["description"],
            raised_by=request.user.get_username(),
            user=request.user,
        )
        messages.success(request, _("Dispute recorded."))
        return redirect("referees:dispute", tournament.pk, dispute.pk)
    return render(
        request,
        "referees/dispute_form.html",
        {"tournament": tournament, "form": form, "is_director": tournament.is_director(request.user)},
        status=422 if form.errors else 200,
    )


def _dispute(tournament: Tournament, dispute_id: int) -> Dispute:
    return get_object_or_404(
        Dispute.objects.select_related("table__series", "game", "decided_by"),
        pk=dispute_id,
        table__series__tournament=tournament,
    )


def _already_closed(request: HttpRequest, tournament: Tournament, dispute: Dispute) -> HttpResponse:
    """A closed dispute's page shows no forms: a late post's errors would be shown nowhere."""
    messages.error(request, _("This dispute was already closed meanwhile; see the decision below."))
    return redirect("referees:dispute", tournament.pk, dispute.pk)


def _dispute_page(request, tournament, dispute, *, decide_form=None, withdraw_form=None, status=200):
    return render(
        request,
        "referees/dispute_detail.html",
        {
            "tournament": tournament,
            "is_director": tournament.is_director(request.user),
            "dispute": dispute,
            "corrections": dispute.corrections.select_related("game", "made_by"),
            "decide_form": decide_form or DecideForm(dispute=dispute),
            "withdraw_form": withdraw_form or WithdrawForm(),
        },
        status=status,
    )


@referee_required
def dispute_detail(request: HttpRequest, tournament: Tournament, dispute_id: int) -> HttpResponse:
    return _dispute_page(request, tournament, _dispute(tournament, dispute_id))


@require_POST
@referee_required
def dispute_decide(request: HttpRequest, tournament: Tournament, dispute_id: int) -> HttpResponse:
    """4.5.10: the referee judges; the decision cites its paragraph and states its effect."""
    dispute = _dispute(tournament, dispute_id)
    if dispute.status != Dispute.Status.OPEN:
        return _already_closed(request, tournament, dispute)
    form = DecideForm(request.POST, dispute=dispute)
    if not form.is_valid():
        return _dispute_page(request, tournament, dispute, decide_form=form, status=422)
    closed = disputes.decide(
        dispute,
        user=request.user,
        paragraph=form.cleaned_data["paragraph"],
        effect=form.cleaned_data["effect"],
        decision=form.cleaned_data["decision"],
    )
    if not closed:
        return _already_closed(request, tournament, dispute)
    messages.success(request, _("Decision recorded (%(paragraph)s).") % {"paragraph": form.cleaned_data["paragraph"]})
    return redirect("referees:dispute", tournament.pk, dispute.pk)


@require_POST
@referee_required
def dispute_withdraw(request: HttpRequest, tournament: Tournament, dispute_id: int) -> HttpResponse:
    """4.5.10: the claim is dropped; the note says why."""
    dispute = _dispute(tournament, dispute_id)
    if dispute.status != Dispute.Status.OPEN:
        return _already_closed(request, tournament, dispute)
    form = WithdrawForm(request.POST)
    if not form.is_valid():
        return _dispute_page(request, tournament, dispute, withdraw_form=form, status=422)
    if not disputes.withdraw(dispute, user=request.user, note=form.cleaned_data["note"]):
        return _already_closed(request, tournament, dispute)
    messages.success(request, _("The dispute is withdrawn."))
    return redirect("referees:dispute", tournament.pk, dispute.pk)
