"""A table's sheet for the referee, "signed on paper", and correcting, voiding or restoring
one game (:mod:`referees.corrections`: one transaction each, the engine values the game)."""

from __future__ import annotations

from django.contrib import messages
from django.db.models import Prefetch
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from core.rule_messages import rule_message
from scoring import lists, tablesheet
from scoring.models import ConflictingEntry, Game
from scoring.preview import preview_response
from signoff import confirm as signoff
from signoff.models import ListsAccepted
from skat.rules import RuleError
from skat.sheet import active_seats
from tournaments.models import Seat, Tournament

from .. import corrections
from ..forms import CorrectionForm, CorrectionPreviewForm, VoidForm
from ..models import Correction, Dispute, Reopening
from ..permissions import referee_required
from ..sheet_forms import PaperForm
from .lookups import game_or_404, players_of, table_or_404


def _other_device(table, games: list[Game], names: list[str], state: signoff.SignOffState) -> list[tuple]:
    """What another device sent for a deal the sheet holds with other values, where it is
    still to be decided (scoring.entry.taken_by): the referee sees both before he corrects
    the deal or decides that the sheet stands. (number, sheet's line, sent line, what differs)."""
    if state.confirmed:
        return []
    open_deals = set(state.lists_differ if state.awaiting else lists.differing_deals([table.pk]).get(table.pk, []))
    if not open_deals:
        return []
    sheet = {game.number: game for game in games}
    rows = []
    for sent in ConflictingEntry.objects.filter(table=table, number__in=open_deals).order_by("number", "pk"):
        game = sheet.get(sent.number)
        if game is not None and game.version == sent.sheet_version and lists.line(game) != lists.line(sent):
            describe = (lists.describe(game, names), lists.describe(sent, names))
            rows.append((sent.number, *describe, lists.differences_text(game, sent, names)))
    return rows


@referee_required
def table_detail(request: HttpRequest, tournament: Tournament, table_id: int) -> HttpResponse:
    """One table's sheet for the referee: sign-off, disputes, every game with its corrections."""
    table = table_or_404(tournament, table_id)
    games = list(
        Game.objects.filter(table=table)
        .order_by("number")
        .prefetch_related(Prefetch("corrections", queryset=Correction.objects.select_related("made_by")))
    )
    players = players_of(table)
    state = signoff.state(table, entered=len(games))
    names = [players.get(n, "?") for n in range(1, table.size + 1)]
    return render(
        request,
        "referees/table.html",
        {
            "tournament": tournament,
            "is_director": tournament.is_director(request.user),
            "table": table,
            "series": table.series,
            "players": names,
            "sheet": tablesheet.build(table.size, table.deals, games),
            "other_device": _other_device(table, games, names, state),
            "signoff": state,
            "locked": [(seat, players.get(seat, "?"), until) for seat, until in sorted(state.locked_seats.items())],
            # A missed deal is added by a referee once the table link is closed for it.
            "can_add": len(games) < table.deals and (state.confirmed or state.series_finished),
            "seats": Seat.objects.filter(table=table).select_related("player").order_by("number"),
            "disputes": Dispute.objects.filter(table=table).select_related("game").order_by("-raised_at"),
            "reopenings": Reopening.objects.filter(table=table).select_related("made_by"),
            "accepted": ListsAccepted.objects.filter(table=table),
        },
    )


@require_POST
@referee_required
def table_paper(request: HttpRequest, tournament: Tournament, table_id: int) -> HttpResponse:
    table = table_or_404(tournament, table_id)
    if not PaperForm(request.POST).is_valid():
        messages.error(
            request, _("Signatures: tick that every player signed the printed sheet; nothing is marked yet.")
        )
        return redirect("referees:table", tournament.pk, table.pk)
    try:
        signoff.mark_on_paper(table, by=request.user.get_username())
    except signoff.SignOffRefused as refused:
        messages.error(request, refused.message)
    else:
        messages.success(request, _("The sheet is marked signed on paper; it is final now."))
    return redirect("referees:table", tournament.pk, table.pk)


def _correction_form(
    game: Game, data=None, *, dispute: str | None = None, form_class: type[CorrectionForm] = CorrectionForm
) -> CorrectionForm:
    seats = active_seats(game.number, game.table.size)
    players = {n: name for n, name in players_of(game.table).items() if n in seats}
    initial = {"number": game.number, "version": game.version, "dispute": dispute}
    return form_class(data, instance=game, table=game.table, players=players, initial=initial)


@require_POST
@referee_required
def game_preview(request: HttpRequest, tournament: Tournament, game_id: int) -> HttpResponse:
    """The corrected game's value and score as the referee fills in the form (htmx), like
    the table link's preview; it saves nothing."""
    game = game_or_404(tournament, game_id)
    form = _correction_form(game, request.POST, form_class=CorrectionPreviewForm)
    return preview_response(request, form)


@require_http_methods(["GET", "POST"])
@referee_required
def game_correct(request: HttpRequest, tournament: Tournament, game_id: int) -> HttpResponse:
    """Correct one game (the engine values the new version), void or restore it; its history."""
    game = game_or_404(tournament, game_id)
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
                    paragraph=form.cleaned_data["paragraph"],
                )
            except RuleError as error:
                form.add_error(None, rule_message(error))
            else:
                messages.success(request, _correction_text(correction))
                return redirect("referees:correct", tournament.pk, game.pk)
        status = 422
        game = game_or_404(tournament, game_id)  # the form changed its instance; show the stored game
    else:
        form = _correction_form(game, dispute=request.GET.get("dispute"))
    # Opened from a dispute (?dispute=): voiding the deal settles it as well as correcting it.
    void_initial = {"version": game.version, "dispute": request.GET.get("dispute")}
    return _correct_page(request, tournament, game, form, VoidForm(table=game.table, initial=void_initial), status)


def _correct_page(request, tournament, game, form, void_form, status):
    players = players_of(game.table)
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


def _signed(score: int) -> str:
    """A score as the sheet writes it: +48, -96, and 0 without a sign."""
    return f"{score:+d}" if score else "0"


def _correction_text(correction: Correction) -> str:
    # Said in words, not "+48 -> +0": what the referee reads back after deciding.
    text = _("Deal %(deal)s: %(kind)s; its score was %(before)s and is now %(after)s.") % {
        "deal": correction.game.number,
        "kind": correction.get_kind_display(),
        "before": _signed(correction.score_before),
        "after": _signed(correction.score_after),
    }
    if correction.dispute_id:
        text += " " + _("Dispute %(n)s is decided with it.") % {"n": correction.dispute_id}
    return text


@require_POST
@referee_required
def game_void(request: HttpRequest, tournament: Tournament, game_id: int) -> HttpResponse:
    """Void the game (it stays, scoring nothing), or restore a voided one."""
    game = game_or_404(tournament, game_id)
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
                paragraph=form.cleaned_data["paragraph"],
            )
        except RuleError as error:
            form.add_error(None, rule_message(error))
        else:
            messages.success(request, _correction_text(correction))
            return redirect("referees:correct", tournament.pk, game.pk)
    return _correct_page(request, tournament, game, _correction_form(game), form, 422)
