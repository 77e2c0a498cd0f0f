"""The referees' pages, and the table link's sign-off and dispute.

Thin: forms validate, scoring.signoff confirms sheets, referees.disputes raises and closes
disputes, referees.corrections changes games (one transaction each, the engine values them),
referees.reports lists the corrections. Every object is looked up inside the
tournament of the URL, so a referee of another tournament finds nothing here (404), and a
table link reaches its own table only.
"""

from __future__ import annotations

import csv

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import IntegrityError
from django.db.models import Count, Prefetch, Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from scoring import signoff, tablesheet
from scoring.exports import CSV_BOM, CSV_DELIMITER
from scoring.lists import differing_deals
from scoring.models import Game
from scoring.rules import RuleError
from scoring.sheet import active_seats
from scoring.views import _table as table_of_link
from tournaments.models import Seat, Series, Table, Tournament
from tournaments.permissions import director_required
from tournaments.rule_messages import rule_message

from . import corrections, disputes, reports
from .forms import (
    AssignForm,
    CorrectionForm,
    DecideForm,
    DisputeForm,
    TableDisputeForm,
    VoidForm,
    WithdrawForm,
)
from .models import Correction, Dispute, RefereeAssignment
from .permissions import referee_required

# --- The table link: raise a dispute -------------------------------------------------------


def _players(table: Table) -> dict[int, str]:
    return dict(table.seats.order_by("number").values_list("number", "player__name"))


@require_http_methods(["GET", "POST"])
def table_dispute(request: HttpRequest, token: str) -> HttpResponse:
    """4.5.10: a claim is addressed at once; the table calls a referee. Only its own table."""
    table = table_of_link(token)
    form = TableDisputeForm(request.POST if request.method == "POST" else None, table=table)
    if request.method == "POST" and form.is_valid():
        disputes.raise_dispute(
            table,
            game=form.cleaned_data.get("game"),
            description=form.cleaned_data["description"],
            raised_by=_("%(name)s (table link)") % {"name": form.cleaned_data["name"]},
        )
        messages.success(request, _("The dispute is recorded; a referee will come to your table."))
        return redirect("tables:sheet", token=token)
    table_disputes = Dispute.objects.filter(table=table).select_related("game").order_by("-raised_at")
    return render(
        request,
        "referees/table_dispute.html",
        {"table": table, "series": table.series, "form": form, "disputes": table_disputes},
        status=422 if form.errors else 200,
    )


# --- Referees' pages ----------------------------------------------------------------------


@login_required
def mine(request: HttpRequest) -> HttpResponse:
    """The tournaments the user referees or directs."""
    user = request.user
    tournaments = Tournament.objects.all()
    if not user.is_superuser:
        tournaments = tournaments.filter(Q(referee_assignments__user=user) | Q(directors=user)).distinct()
    return render(request, "referees/mine.html", {"tournaments": tournaments})


def _tables_with_status(tournament: Tournament):
    return (
        Table.objects.filter(series__tournament=tournament)
        .select_related("series", "signoff")
        .annotate(
            entered=Count("games", distinct=True),
            open_disputes=Count("disputes", filter=Q(disputes__status=Dispute.Status.OPEN), distinct=True),
        )
        .order_by("series__number", "number")
    )


@referee_required
def board(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Open disputes by age, every table's sign-off, the history of every correction."""
    board_disputes = (
        Dispute.objects.filter(table__series__tournament=tournament)
        .select_related("table__series", "game", "decided_by")
        .order_by("raised_at")
    )
    tables = list(_tables_with_status(tournament))
    # Where a table's second list differs from its sheet (scoring.lists): one query.
    differing = differing_deals(Table.objects.filter(series__tournament=tournament))
    for table in tables:
        table.lists_differ = differing.get(table.pk, [])
        table.deal_count = tournament.deals_per_table(table.size)
        table.confirmed = getattr(table, "signoff", None) is not None
        table.awaiting = not table.confirmed and signoff.confirmable(
            entered=table.entered,
            deals=table.deal_count,
            series_finished=table.series.status == Series.Status.FINISHED,
        )
    open_disputes = [d for d in board_disputes if d.status == Dispute.Status.OPEN]
    now = timezone.now()
    for dispute in open_disputes:
        dispute.age_minutes = int((now - dispute.raised_at).total_seconds() // 60)
    context = {
        "tournament": tournament,
        "is_director": tournament.is_director(request.user),
        "open_disputes": open_disputes,
        "closed_disputes": [d for d in board_disputes if d.status != Dispute.Status.OPEN][::-1],
        "tables": tables,
        "confirmed": sum(t.confirmed for t in tables),
        "awaiting": sum(t.awaiting for t in tables),
        "corrections": reports.corrections_of(tournament),
    }
    return render(request, "referees/board.html", context)


@referee_required
def corrections_csv(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Every correction as CSV (:func:`referees.reports.corrections_rows`)."""
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="corrections-{tournament.pk}.csv"'
    # The league exports' dialect (scoring.exports): ";" and a byte order mark, so German
    # Excel opens it in columns and reads "ü" as UTF-8.
    response.write(CSV_BOM)
    csv.writer(response, delimiter=CSV_DELIMITER, lineterminator="\r\n").writerows(
        reports.corrections_rows(tournament)
    )
    return response


@director_required
def assign(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The director names the tournament's referees."""
    form = AssignForm(request.POST if request.method == "POST" else None, tournament=tournament)
    if request.method == "POST" and form.is_valid():
        try:
            user, created = form.save(assigned_by=request.user)
        except IntegrityError:
            # A second post (a double tap, another director) made the account or the
            # assignment between this form's checks and its save: nothing of this one is kept.
            form.add_error(
                "username",
                _("%(name)s was just made or assigned from another request; see the list above.")
                % {"name": form.cleaned_data["username"]},
            )
        else:
            text = _("%(name)s referees this tournament now.") % {"name": user.get_username()}
            if created:
                text += " " + _("The account was created: give the referee the user name and the password.")
            messages.success(request, text)
            return redirect("referees:assign", tournament.pk)
    assignments = RefereeAssignment.objects.filter(tournament=tournament).select_related("user", "assigned_by")
    return render(
        request,
        "referees/assign.html",
        {"tournament": tournament, "form": form, "assignments": assignments, "is_director": True},
        status=422 if form.errors else 200,
    )


@require_POST
@director_required
def unassign(request: HttpRequest, tournament: Tournament, assignment_id: int) -> HttpResponse:
    assignment = get_object_or_404(RefereeAssignment, pk=assignment_id, tournament=tournament)
    assignment.delete()
    messages.success(request, _("%(name)s no longer referees this tournament.") % {"name": assignment.user})
    return redirect("referees:assign", tournament.pk)


@referee_required
def dispute_new(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """A director or referee records a dispute about any table of the tournament."""
    initial = {"table": request.GET.get("table"), "deal": request.GET.get("deal")}
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


def _table(tournament: Tournament, table_id: int) -> Table:
    return get_object_or_404(
        Table.objects.select_related("series__tournament"), pk=table_id, series__tournament=tournament
    )


@referee_required
def table_detail(request: HttpRequest, tournament: Tournament, table_id: int) -> HttpResponse:
    """One table's sheet for the referee: sign-off, disputes, every game with its corrections."""
    table = _table(tournament, table_id)
    games = list(
        Game.objects.filter(table=table)
        .order_by("number")
        .prefetch_related(Prefetch("corrections", queryset=Correction.objects.select_related("made_by")))
    )
    players = _players(table)
    return render(
        request,
        "referees/table.html",
        {
            "tournament": tournament,
            "is_director": tournament.is_director(request.user),
            "table": table,
            "series": table.series,
            "players": [players.get(n, "?") for n in range(1, table.size + 1)],
            "sheet": tablesheet.build(table.size, table.deals, games),
            "signoff": signoff.state(table, entered=len(games)),
            "seats": Seat.objects.filter(table=table).select_related("player").order_by("number"),
            "disputes": Dispute.objects.filter(table=table).select_related("game").order_by("-raised_at"),
        },
    )


@require_POST
@referee_required
def table_paper(request: HttpRequest, tournament: Tournament, table_id: int) -> HttpResponse:
    table = _table(tournament, table_id)
    try:
        signoff.mark_on_paper(table, by=request.user.get_username())
    except signoff.SignOffRefused as refused:
        messages.error(request, refused.message)
    else:
        messages.success(request, _("The sheet is marked signed on paper; it is final now."))
    return redirect("referees:table", tournament.pk, table.pk)


def _game(tournament: Tournament, game_id: int) -> Game:
    return get_object_or_404(
        Game.objects.select_related("table__series__tournament"), pk=game_id, table__series__tournament=tournament
    )


def _correction_form(game: Game, data=None, *, dispute: str | None = None) -> CorrectionForm:
    players = {n: name for n, name in _players(game.table).items() if n in active_seats(game.number, game.table.size)}
    initial = {"number": game.number, "version": game.version, "dispute": dispute}
    return CorrectionForm(data, instance=game, table=game.table, players=players, initial=initial)


@require_http_methods(["GET", "POST"])
@referee_required
def game_correct(request: HttpRequest, tournament: Tournament, game_id: int) -> HttpResponse:
    """Correct one game (the engine values the new version), void or restore it; its history."""
    game = _game(tournament, game_id)
    status = 200
    if request.method == "POST":
        form = _correction_form(game, request.POST)
        if form.is_valid():
            changes = {name: getattr(form.instance, name) for name in corrections.CORRECTABLE_FIELDS}
            try:
                correction = corrections.correct_game(
                    game.pk,
                    expected_version=form.cleaned_data["version"],
                    changes=changes,
                    user=request.user,
                    reason=form.cleaned_data["reason"],
                    dispute=form.cleaned_data["dispute"],
                )
            except RuleError as error:
                form.add_error(None, rule_message(error))
            else:
                messages.success(request, _correction_text(correction))
                return redirect("referees:correct", tournament.pk, game.pk)
        status = 422
        game = _game(tournament, game_id)  # the form changed its instance; show the stored game
    else:
        form = _correction_form(game, dispute=request.GET.get("dispute"))
    return _correct_page(
        request, tournament, game, form, VoidForm(table=game.table, initial={"version": game.version}), status
    )


def _correct_page(request, tournament, game, form, void_form, status):
    players = _players(game.table)
    return render(
        request,
        "referees/correct.html",
        {
            "tournament": tournament,
            "is_director": tournament.is_director(request.user),
            "game": game,
            "table": game.table,
            "declarer": players.get(game.declarer_seat, ""),
            "form": form,
            "void_form": void_form,
            "history": game.corrections.select_related("made_by", "dispute"),
            "signed": signoff.is_signed(game.table),
        },
        status=status,
    )


def _correction_text(correction: Correction) -> str:
    return _("Deal %(deal)s: %(kind)s, score %(before)s -> %(after)s.") % {
        "deal": correction.game.number,
        "kind": correction.get_kind_display(),
        "before": f"{correction.score_before:+d}",
        "after": f"{correction.score_after:+d}",
    }


@require_POST
@referee_required
def game_void(request: HttpRequest, tournament: Tournament, game_id: int) -> HttpResponse:
    """Void the game (it stays, scoring nothing), or restore a voided one."""
    game = _game(tournament, game_id)
    form = VoidForm(request.POST, table=game.table)
    if form.is_valid():
        action = corrections.restore_game if game.voided else corrections.void_game
        try:
            correction = action(
                game.pk,
                expected_version=form.cleaned_data["version"],
                user=request.user,
                reason=form.cleaned_data["reason"],
                dispute=form.cleaned_data["dispute"],
            )
        except RuleError as error:
            form.add_error(None, rule_message(error))
        else:
            messages.success(request, _correction_text(correction))
            return redirect("referees:correct", tournament.pk, game.pk)
    return _correct_page(request, tournament, game, _correction_form(game), form, 422)
