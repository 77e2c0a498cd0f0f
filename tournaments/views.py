"""The director's pages of tournaments: the front page, creating and editing a tournament,
players. Thin: forms validate, services.py holds the rules (the draw and the seats are
draw.views'); every list is a fixed number of queries."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required, permission_required
from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from core.paging import page_of
from core.uploads import import_upload

from . import door, hooks, presets, services
from .door import refund_text
from .forms import (
    LostGameFeeFormSet,
    PassedOutFeeFormSet,
    PrizeFormSet,
    TableMoneyFormSet,
    TournamentForm,
)
from .imports import import_players
from .models import Registration, Tournament
from .permissions import director_required
from .player_forms import CategoryForm, PlayerEditForm, RegistrationForm, shared_message


def home(request: HttpRequest) -> HttpResponse:
    """Directors see their tournaments; everybody sees the published standings."""
    # Archived tournaments leave the lists; their pages stay reachable by their links.
    mine = Tournament.objects.for_user(request.user).filter(archived=False)
    public = Tournament.objects.filter(standings_public=True, archived=False)
    # Panels of the apps above (the tournaments a user referees): tournaments.hooks.
    panels = hooks.front_page_panels(request)
    return render(request, "tournaments/home.html", {"mine": mine, "public": public, "panels": panels})


@login_required
@permission_required("tournaments.add_tournament", raise_exception=True)
def tournament_create(request: HttpRequest) -> HttpResponse:
    # `request.POST or None` would leave an empty post unbound: shown again without a word.
    posted = request.POST if request.method == "POST" else None
    # A preset (tournaments.presets) fills the form's rules; its tables are written with the tournament.
    preset = presets.BY_KEY.get((posted or request.GET).get("preset", ""))
    form = TournamentForm(posted, initial=preset.fields() if preset else None)
    if request.method == "POST" and form.is_valid():
        tournament = services.create_tournament(form, request.user, preset=preset)
        messages.success(request, _("Tournament created. Register the players next."))
        if request.POST.get("next") == "rules":  # the fee and prize tables live on the rules page
            return redirect("director:edit", tournament.pk)
        return redirect("director:players", tournament.pk)
    choices = [(p, presets.summary(p)) for p in presets.PRESETS]
    return render(request, "tournaments/tournament_form.html", {"form": form, "presets": choices, "preset": preset})


def _sent(request: HttpRequest, prefix: str):
    """The POST data for the formset ``prefix``, or None (unbound) when the post lacks it."""
    if request.method == "POST" and f"{prefix}-TOTAL_FORMS" in request.POST:
        return request.POST
    return None


#: Empty prize rows the rules page offers at once (and adds on asking).
PRIZE_ROWS = 10


@director_required
def tournament_edit(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    # `request.POST or None` would leave an empty post unbound: shown again without a word.
    posted = request.POST if request.method == "POST" else None
    form = TournamentForm(posted, instance=tournament)
    fees = LostGameFeeFormSet(posted, instance=tournament, prefix="fees")
    # The money tables added later bind only when the page sent them, so a post of the
    # older form (or a script) that lacks them changes the rest and leaves them as they are.
    passed_out_fees = PassedOutFeeFormSet(_sent(request, "passed"), instance=tournament, prefix="passed")
    table_money = TableMoneyFormSet(_sent(request, "money"), instance=tournament, prefix="money")
    prizes = PrizeFormSet(_sent(request, "prizes"), instance=tournament, prefix="prizes")
    if not prizes.is_bound:
        # A prize table is often ten places and more: ten empty rows to start it, and ten
        # more on asking ("Save and add 10 prize rows"), not three per save.
        prizes.extra = (PRIZE_ROWS if not prizes.queryset.exists() else 3) + (
            PRIZE_ROWS if request.GET.get("more") == "prizes" else 0
        )
    optional = (passed_out_fees, table_money, prizes)
    # Everything validated (no short circuit), so every error shows at once.
    formsets_valid = all([fees.is_valid(), *(f.is_valid() for f in optional if f.is_bound)])
    # The form refuses changes that would orphan drawn series or entered deals (services).
    if request.method == "POST" and all([form.is_valid(), formsets_valid]):
        with transaction.atomic():
            form.save()
            fees.save()
            for formset in optional:
                if formset.is_bound:
                    formset.save()
        messages.success(request, _("Saved."))
        if request.POST.get("more") == "prizes":
            return redirect(reverse("director:edit", args=[tournament.pk]) + "?more=prizes#prizes")
        return redirect(tournament)
    context = {
        "form": form,
        "fees": fees,
        "passed_out_fees": passed_out_fees,
        "table_money": table_money,
        "prizes": prizes,
        "tournament": tournament,
    }
    return render(request, "tournaments/tournament_form.html", context)


@director_required
def players(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Register players (a namesake of the same club only after a warning), list them by
    surname, and keep the tournament's categories."""
    form = RegistrationForm(
        request.POST if request.method == "POST" else None, tournament=tournament, user=request.user
    )
    if request.method == "POST" and form.is_valid():
        try:
            registration = services.register(tournament, form.entry())
        except IntegrityError:
            form.add_error("name", _("This player was registered meanwhile; look him up in the list."))
        else:
            messages.success(
                request,
                _("%(name)s is registered with start number %(number)s.")
                % {"name": registration.player.name, "number": registration.start_number},
            )
            return redirect("director:players", tournament.pk)
    return _players_page(request, tournament, form, CategoryForm(tournament=tournament))


def _players_page(request: HttpRequest, tournament: Tournament, form, category_form) -> HttpResponse:
    registrations = (
        Registration.objects.filter(tournament=tournament)
        .select_related("player__club", "team", "category")
        .order_by("player__sort_key", "player__name", "pk")
    )
    query = request.GET.get("q", "")
    # A page of the list by surname, or of the search's hits (the door's search: any word
    # order, accents and umlauts folded, start or membership number).
    page = page_of(request, door.search(registrations, query))
    return render(
        request,
        "tournaments/players.html",
        {
            "tournament": tournament,
            "form": form,
            "category_form": category_form,
            "categories": tournament.categories.all(),
            "query": query,
            "page": page,
            "registered": registrations.count() if query else page.paginator.count,
            "drawn": tournament.series.count(),
        },
        status=422 if form.errors or category_form.errors else 200,
    )


@require_POST
@director_required
def category_add(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    form = CategoryForm(request.POST, tournament=tournament)
    if form.is_valid():
        try:
            with transaction.atomic():
                category = form.save()
        except IntegrityError:
            form.add_error("name", _("This tournament has this category already."))
        else:
            messages.success(request, _("Category %(name)s added.") % {"name": category.name})
            return redirect("director:players", tournament.pk)
    return _players_page(request, tournament, RegistrationForm(tournament=tournament), form)


@require_POST
@director_required
def withdraw(request: HttpRequest, tournament: Tournament, registration_id: int) -> HttpResponse:
    """Withdraw a player after the last drawn series; before any draw, remove him."""
    registration = get_object_or_404(Registration, pk=registration_id, tournament=tournament)
    drawn = services.withdraw(registration)
    if drawn == 0:
        messages.success(request, _("%(name)s is removed.") % {"name": registration.player.name})
    else:
        messages.success(
            request,
            _("%(name)s withdrew after series %(n)s.") % {"name": registration.player.name, "n": drawn}
            + refund_text(tournament, registration),
        )
    return redirect("director:players", tournament.pk)


@require_POST
@director_required
def players_import(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    import_upload(
        request,
        lambda upload: import_players(
            tournament, upload, upload.name, user=request.user, skip_bad_rows=request.POST.get("skip_bad_rows") == "1"
        ),
        lambda result: (
            ngettext(
                "%(n)s player registered (%(new)s new, %(known)s already known by membership number).",
                "%(n)s players registered (%(new)s new, %(known)s already known by membership number).",
                result.registered,
            )
            % {"n": result.registered, "new": result.created, "known": result.existing}
            + _ignored_columns(result.ignored_columns)
        ),
    )
    return redirect("director:players", tournament.pk)


def _ignored_columns(headers: list[str]) -> str:
    """The columns an import left out, said after what it registered (" Not read: Telefon.")."""
    if not headers:
        return ""
    return " " + _("Columns not read (the office does not know them): %(columns)s.") % {"columns": ", ".join(headers)}


@director_required
def tournament_delete(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Delete a tournament without games (after a confirmation page); archive one with games."""
    # A deal entered in any series (scoring answers through the hook): archive, never delete.
    has_games = any(hooks.play_started(series) for series in tournament.series.all())
    if request.method == "POST":
        if request.POST.get("confirm") != "yes":
            messages.error(request, _("confirm: tick the box to confirm."))
            return redirect("director:delete", tournament.pk)
        done = services.delete_or_archive(tournament, has_games)
        if done == "deleted":
            messages.success(request, _("%(name)s is deleted.") % {"name": tournament.name})
        else:
            messages.success(
                request,
                _("%(name)s is archived: hidden from the front page, its pages still reachable.")
                % {"name": tournament.name},
            )
        return redirect("director:home")
    return render(request, "tournaments/tournament_delete.html", {"tournament": tournament, "has_games": has_games})


# Correcting a registered player from the players page: name, club, membership number,
# team and category. The change shows everywhere: standings and printed sheets read the
# player's name and club from the database.
#: The latest changes of the person shown under the form.
CHANGES_SHOWN = 10


@director_required
def player_edit(request: HttpRequest, tournament: Tournament, registration_id: int) -> HttpResponse:
    registration = get_object_or_404(
        Registration.objects.select_related("player__club", "team", "category", "tournament"),
        pk=registration_id,
        tournament=tournament,
    )
    form = PlayerEditForm(
        request.POST if request.method == "POST" else None, registration=registration, user=request.user
    )
    if request.method == "POST" and form.is_valid():
        try:
            form.save()
        except services.PersonShared as shared:  # a tournament or league he joined meanwhile
            form.add_error(None, shared_message(shared.name, shared.places))
        except IntegrityError:
            form.add_error(None, _("Another player took this name or membership number meanwhile; nothing changed."))
        else:
            messages.success(request, _("%(name)s is saved.") % {"name": form.cleaned_data["name"]})
            return redirect("director:players", tournament.pk)
    changes = registration.player.changes.select_related("user")[:CHANGES_SHOWN]
    context = {"tournament": tournament, "registration": registration, "form": form, "changes": changes}
    return render(request, "tournaments/player_edit.html", context, status=422 if form.errors else 200)
