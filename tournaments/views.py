"""The director's pages. Thin: forms validate, series.py draws and changes seats,
scoring.standings ranks; every list is a fixed number of queries."""

from __future__ import annotations

import statistics

from django.contrib import messages
from django.contrib.auth.decorators import login_required, permission_required
from django.db import transaction
from django.db.models import Count, Prefetch
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from django_tables2 import RequestConfig

from scoring.lists import differing_deals
from scoring.messages import rule_message
from scoring.rules import RuleError
from scoring.standings import finality, standings, team_standings
from scoring.tables import StandingsTable, TeamStandingsTable, rows, team_rows

from . import series as series_service
from .forms import (
    DrawForm,
    LostGameFeeFormSet,
    MoveForm,
    PassedOutFeeFormSet,
    PrizeFormSet,
    RegistrationForm,
    SwapForm,
    TableMoneyFormSet,
    TournamentForm,
)
from .models import Registration, Seat, Series, Table, Tournament
from .params import number_param
from .permissions import director_required


def home(request: HttpRequest) -> HttpResponse:
    """Directors see their tournaments; everybody sees the published standings."""
    mine = Tournament.objects.for_user(request.user)
    public = Tournament.objects.filter(standings_public=True)
    return render(request, "tournaments/home.html", {"mine": mine, "public": public})


@login_required
@permission_required("tournaments.add_tournament", raise_exception=True)
def tournament_create(request: HttpRequest) -> HttpResponse:
    # `request.POST or None` would leave an empty post unbound: shown again without a word.
    posted = request.POST if request.method == "POST" else None
    form = TournamentForm(posted)
    if request.method == "POST" and form.is_valid():
        with transaction.atomic():
            tournament = form.save()
            tournament.directors.add(request.user)
            # The common lost-game fee schedule (DOMAIN); the director edits it.
            tournament.lost_game_fees.create(from_lost_game=1, amount="0.50")
            tournament.lost_game_fees.create(from_lost_game=4, amount="1.00")
        messages.success(request, _("Tournament created. Register the players next."))
        return redirect("tournaments:players", tournament.pk)
    return render(request, "tournaments/tournament_form.html", {"form": form})


def _sent(request: HttpRequest, prefix: str):
    """The POST data for the formset ``prefix``, or None (unbound) when the post lacks it."""
    if request.method == "POST" and f"{prefix}-TOTAL_FORMS" in request.POST:
        return request.POST
    return None


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
    optional = (passed_out_fees, table_money, prizes)
    # Everything validated (no short circuit), so every error shows at once.
    formsets_valid = all([fees.is_valid(), *(f.is_valid() for f in optional if f.is_bound)])
    if request.method == "POST" and all([form.is_valid(), formsets_valid]):
        drawn = tournament.series.count()
        if form.cleaned_data["series_count"] < drawn:
            form.add_error("series_count", _("%(n)s series are already drawn.") % {"n": drawn})
        else:
            with transaction.atomic():
                form.save()
                fees.save()
                for formset in optional:
                    if formset.is_bound:
                        formset.save()
            messages.success(request, _("Saved."))
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


def table_progress(series: Series) -> list[Table]:
    """The series' tables with seats and games entered, and where their second lists
    differ: four queries, any size."""
    tables = list(
        series.tables.annotate(entered=Count("games"))
        .select_related("signoff")  # the sheet's sign-off (referees app)
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("number")))
        .order_by("number")
    )
    deals = {3: series.tournament.deals_per_table(3), 4: series.tournament.deals_per_table(4)}
    # Where the table's second list differs from its sheet (scoring.lists): one query.
    differing = differing_deals(series.tables.all())
    fractions = [t.entered / deals[t.size] for t in tables]
    median = statistics.median(fractions) if fractions else 0
    for table, fraction in zip(tables, fractions, strict=True):
        table.deal_count = deals[table.size]
        table.finished = table.entered >= table.deal_count
        # Behind: more than one round short of the median table.
        table.behind = not table.finished and (median - fraction) * table.deal_count > table.size
        table.percent = round(100 * fraction)
        # 3.2.1: a round is one deal by each player; the tile shows the round being played.
        table.rounds = table.deal_count // table.size
        table.round = min(table.entered // table.size + 1, table.rounds)
        # Only a confirmed sheet is final (5.5.3); a finished one awaits the players' confirmation.
        table.lists_differ = differing.get(table.pk, [])
        table.confirmed = getattr(table, "signoff", None) is not None
        table.awaiting = not table.confirmed and (
            table.finished or (series.status == Series.Status.FINISHED and table.entered > 0)
        )
    return tables


@director_required
def tournament_detail(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The dashboard: series and their tables' progress, and what to do next."""
    all_series = list(tournament.series.order_by("number"))
    current = all_series[-1] if all_series else None
    tables = table_progress(current) if current else []
    registered = Registration.objects.filter(tournament=tournament).count()
    context = {
        "tournament": tournament,
        "all_series": all_series,
        "current": current,
        "tables": tables,
        "finished_tables": sum(t.finished for t in tables),
        "behind_tables": sum(t.behind for t in tables),
        "confirmed_tables": sum(t.confirmed for t in tables),
        "awaiting_tables": sum(t.awaiting for t in tables),
        "registered": registered,
        "draw_form": DrawForm(),
        "can_draw": len(all_series) < tournament.series_count
        and (current is None or current.status == Series.Status.FINISHED),
    }
    return render(request, "tournaments/tournament_detail.html", context)


@director_required
def progress(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The current series' table tiles, for the dashboard to refresh itself."""
    current = tournament.series.order_by("-number").first()
    tables = table_progress(current) if current else []
    return render(request, "tournaments/_progress.html", {"tables": tables})


@director_required
def players(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    form = RegistrationForm(request.POST if request.method == "POST" else None, tournament=tournament)
    if request.method == "POST" and form.is_valid():
        registration = form.save()
        messages.success(request, _("%(name)s is registered.") % {"name": registration.player.name})
        return redirect("tournaments:players", tournament.pk)
    registrations = (
        Registration.objects.filter(tournament=tournament)
        .select_related("player__club", "team")
        .order_by("player__name")
    )
    return render(
        request,
        "tournaments/players.html",
        {
            "tournament": tournament,
            "form": form,
            "registrations": registrations,
            "drawn": tournament.series.count(),
        },
        status=422 if form.errors else 200,
    )


@require_POST
@director_required
def withdraw(request: HttpRequest, tournament: Tournament, registration_id: int) -> HttpResponse:
    """Withdraw a player after the last drawn series; before any draw, remove him."""
    registration = get_object_or_404(Registration, pk=registration_id, tournament=tournament)
    drawn = tournament.series.count()
    if drawn == 0:
        registration.delete()
        messages.success(request, _("%(name)s is removed.") % {"name": registration.player.name})
    else:
        registration.withdrawn_after_series = drawn
        registration.save(update_fields=["withdrawn_after_series"])
        messages.success(
            request,
            _("%(name)s withdrew after series %(n)s.") % {"name": registration.player.name, "n": drawn},
        )
    return redirect("tournaments:players", tournament.pk)


@require_POST
@director_required
def draw(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    form = DrawForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose how to draw the series."))
        return redirect(tournament)
    try:
        series = series_service.draw_series(tournament, form.cleaned_data["method"])
    except RuleError as error:
        messages.error(request, rule_message(error))
        return redirect(tournament)
    messages.success(
        request,
        _("Series %(n)s is drawn: %(tables)s tables, %(repeat)s repeat meetings, %(club)s club-mate pairs.")
        % {
            "n": series.number,
            "tables": series.tables.count(),
            "repeat": series.repeat_meetings,
            "club": series.club_meetings,
        },
    )
    return redirect("tournaments:series", tournament.pk, series.number)


def _series(tournament: Tournament, number: int) -> Series:
    return get_object_or_404(Series.objects.select_related("tournament"), tournament=tournament, number=number)


@director_required
def series_detail(request: HttpRequest, tournament: Tournament, number: int) -> HttpResponse:
    series = _series(tournament, number)
    tables = table_progress(series)
    seated = sorted(((s.player_id, s.player.name) for t in tables for s in t.seats.all()), key=lambda p: p[1])
    table_choices = [(t.pk, _("Table %(n)s") % {"n": t.number}) for t in tables]
    return render(
        request,
        "tournaments/series_detail.html",
        {
            "tournament": tournament,
            "series": series,
            "tables": tables,
            "editable": series.status == Series.Status.DRAWN and not any(t.entered for t in tables),
            "swap_form": SwapForm(players=seated),
            "move_form": MoveForm(players=seated, tables=table_choices),
        },
    )


@require_POST
@director_required
def swap(request: HttpRequest, tournament: Tournament, number: int) -> HttpResponse:
    series = _series(tournament, number)
    players = list(Seat.objects.filter(series=series).values_list("player_id", "player__name"))
    form = SwapForm(request.POST, players=players)
    if form.is_valid():
        try:
            series_service.swap_players(series, form.cleaned_data["first"], form.cleaned_data["second"])
            messages.success(request, _("Players swapped."))
        except RuleError as error:
            messages.error(request, rule_message(error))
    else:
        messages.error(request, _("Choose two seated players."))
    return redirect("tournaments:series", tournament.pk, number)


@require_POST
@director_required
def move(request: HttpRequest, tournament: Tournament, number: int) -> HttpResponse:
    series = _series(tournament, number)
    players = list(Seat.objects.filter(series=series).values_list("player_id", "player__name"))
    tables = list(series.tables.values_list("pk", "number"))
    form = MoveForm(request.POST, players=players, tables=tables)
    if form.is_valid():
        table = series.tables.get(pk=form.cleaned_data["table"])
        try:
            series_service.move_player(series, form.cleaned_data["player"], table)
            messages.success(request, _("Player moved."))
        except RuleError as error:
            messages.error(request, rule_message(error))
    else:
        messages.error(request, _("Choose a seated player and a table of this series."))
    return redirect("tournaments:series", tournament.pk, number)


@require_POST
@director_required
def series_finish(request: HttpRequest, tournament: Tournament, number: int) -> HttpResponse:
    series = _series(tournament, number)
    open_tables = [t.number for t in table_progress(series) if not t.finished]
    if open_tables and request.POST.get("force") != "1":
        messages.error(
            request,
            _("Tables %(tables)s have not entered all deals; confirm to finish anyway.")
            % {"tables": ", ".join(map(str, open_tables[:20]))},
        )
        return redirect("tournaments:series", tournament.pk, number)
    series.status = Series.Status.FINISHED
    series.save(update_fields=["status"])
    messages.success(request, _("Series %(n)s is finished.") % {"n": number})
    return redirect(tournament)


def _standings_context(request: HttpRequest, tournament: Tournament, player_link: str | None = None) -> dict:
    numbers = list(tournament.series.order_by("number").values_list("number", flat=True))
    selected = number_param(request.GET.get("series"))
    series_number = selected if selected in numbers else None
    ranked = standings(tournament, series_number)
    # The team ranking is offered once the tournament has teams; ?view=teams shows it.
    has_teams = tournament.teams.exists()
    teams_view = has_teams and request.GET.get("view") == "teams"
    if teams_view:
        table = TeamStandingsTable(team_rows(team_standings(tournament, series_number, players=ranked)))
    else:
        data = rows(ranked)
        if player_link:  # each name links to the player's statistics page
            for row in data:
                row["url"] = reverse(player_link, args=[tournament.pk, row["player_id"]])
        table = StandingsTable(data)
    RequestConfig(request, paginate=False).configure(table)
    finished = finality(tournament, series_number)
    return {
        "tournament": tournament,
        "table": table,
        "numbers": numbers,
        "series_number": series_number,
        "has_teams": has_teams,
        "teams_view": teams_view,
        "sheets_confirmed": finished.confirmed,
        "sheets": finished.sheets,
        "finality": finished,
        "unfinished": ", ".join(map(str, finished.unfinished)),
    }


@director_required
def standings_view(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    context = _standings_context(request, tournament, "tournaments:player_statistics")
    return render(request, "tournaments/standings.html", context)


def public_standings(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """Standings for everybody, once the director publishes them."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    if not (tournament.standings_public or tournament.is_director(request.user)):
        raise Http404
    context = _standings_context(request, tournament, "public:player_statistics")
    return render(request, "tournaments/standings.html", context | {"public": True})


def live(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The projector page: the top of the standings, refreshing itself."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    if not (tournament.standings_public or tournament.is_director(request.user)):
        raise Http404
    context = _standings_context(request, tournament)
    template = "tournaments/_live_table.html" if request.htmx else "tournaments/live.html"
    return render(request, template, context)
