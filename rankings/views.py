"""The ranking's director pages: the list, a new ranking and its rules, the ranking with
its tournaments (add, import, read again, take out), a player's line, who is who.
Views only read the request, call a service and say what happened."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required, permission_required
from django.db import transaction
from django.db.models import Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from core.paging import page_of
from core.workbooks import UPLOADS
from tournaments.models import Player
from transfer.tournament_file.cells import TransferError
from transfer.tournament_file.importer import import_tournament

from . import background, people, services
from .compute import check_held
from .forms import AddTournamentForm, DecisionForm, ImportForm, PlacePointsFormSet, RankingForm
from .models import PersonDecision, Ranking, RankingResult, RankingTournament, table_of_points
from .pages import player_context, ranking_context
from .permissions import director_required

#: The most players an uploaded tournament file may hold (a hall's tournament).
MOST_PLAYERS = 5000


@login_required
def ranking_list(request: HttpRequest) -> HttpResponse:
    rankings = Ranking.objects.for_user(request.user).order_by("-created_at")
    may_add = request.user.has_perm("tournaments.add_tournament")
    return render(request, "rankings/list.html", {"rankings": rankings, "may_add": may_add})


def _rules_page(request: HttpRequest, ranking: Ranking | None) -> HttpResponse:
    instance = ranking or Ranking()
    form = RankingForm(request.POST or None, instance=instance)
    points = PlacePointsFormSet(request.POST or None, instance=instance, prefix="points")
    if request.method == "POST" and form.is_valid() and points.is_valid():
        rows = [
            (f.cleaned_data["place"], f.cleaned_data["points"])
            for f in points.forms
            if f.cleaned_data and not f.cleaned_data.get("DELETE")
        ]
        places = [place for place, _points in rows]
        if len(places) != len(set(places)):
            form.add_error(None, _("Points per place: each place has one row."))
        elif form.check_rules(table_of_points(rows)):
            try:
                saved = _save_rules(request, form, points, ranking)
            except services.RankingRefused as refused:
                form.add_error(None, str(refused))
            else:
                messages.success(request, _("The rules are saved; the ranking is computed again in the background."))
                return redirect("rankings:ranking", saved.pk)
    status = 422 if request.method == "POST" else 200
    context = {"ranking": ranking, "form": form, "points": points}
    return render(request, "rankings/rules.html", context, status=status)


def _save_rules(request: HttpRequest, form: RankingForm, points, ranking: Ranking | None) -> Ranking:
    """Save the rules and ask for the ranking to be computed (in the background); rules its
    tournaments cannot take (more held than planned) are refused and nothing is saved."""
    with transaction.atomic():
        saved = form.save()
        if ranking is None:
            saved.directors.add(request.user)
        points.instance = saved
        points.save()
        problem = check_held(saved)
        if problem:
            raise services.RankingRefused(problem)
        background.changed(saved)
    return saved


@login_required
@permission_required("tournaments.add_tournament", raise_exception=True)
def ranking_new(request: HttpRequest) -> HttpResponse:
    return _rules_page(request, None)


@director_required
def rules(request: HttpRequest, ranking: Ranking) -> HttpResponse:
    return _rules_page(request, ranking)


@director_required
def ranking_detail(request: HttpRequest, ranking: Ranking) -> HttpResponse:
    background.seen(ranking)
    context = ranking_context(request, ranking, staff=True) | {"doubtful": ranking.doubtful}
    return render(request, "rankings/ranking.html", context)


@director_required
def tournaments(request: HttpRequest, ranking: Ranking) -> HttpResponse:
    """The ranking's tournaments (a page of them), and adding, importing, reading again."""
    background.seen(ranking)
    entries = RankingTournament.objects.filter(ranking=ranking).select_related("tournament")
    context = {
        "ranking": ranking,
        "page": page_of(request, entries.order_by("-tournament__date", "-pk")),
        "add_form": AddTournamentForm(user=request.user, ranking=ranking),
        "import_form": ImportForm(),
    }
    return render(request, "rankings/tournaments.html", context)


def _added(request: HttpRequest, added: services.Added) -> None:
    messages.success(
        request,
        ngettext(
            "%(tournament)s is added: %(n)s player with a result.",
            "%(tournament)s is added: %(n)s players with a result.",
            added.players,
        )
        % {"tournament": added.entry.tournament, "n": added.players},
    )
    if not added.players:
        messages.warning(request, _("It has no result yet: its players count once its series are played."))
    if added.doubtful:
        messages.warning(
            request,
            ngettext(
                "%(n)s doubtful match waits for your word (Who is who): until then the records count apart.",
                "%(n)s doubtful matches wait for your word (Who is who): until then the records count apart.",
                added.doubtful,
            )
            % {"n": added.doubtful},
        )


@require_POST
@director_required
def tournament_add(request: HttpRequest, ranking: Ranking) -> HttpResponse:
    form = AddTournamentForm(request.POST, user=request.user, ranking=ranking)
    if not form.is_valid():
        messages.error(request, _("Tournament: choose one of the tournaments you direct."))
        return redirect("rankings:tournaments", ranking.pk)
    try:
        _added(request, services.add_tournament(ranking, form.cleaned_data["tournament"], request.user))
    except services.RankingRefused as refused:
        messages.error(request, str(refused))
    return redirect("rankings:tournaments", ranking.pk)


@require_POST
@director_required
def tournament_import(request: HttpRequest, ranking: Ranking) -> HttpResponse:
    """A tournament file (the office's XLSX) becomes a tournament of the user's, then is added;
    a file that cannot be read changes nothing and says why."""
    form = ImportForm(request.POST, request.FILES)
    if not form.is_valid():
        messages.error(request, _("Tournament file: choose the file to import."))
        return redirect("rankings:tournaments", ranking.pk)
    try:
        with transaction.atomic():
            imported = import_tournament(
                form.cleaned_data["file"], directors=[request.user], limits=UPLOADS, most_players=MOST_PLAYERS
            )
            _added(request, services.add_tournament(ranking, imported.tournament, request.user))
    except TransferError as error:
        messages.error(request, _("Tournament file: nothing was imported: %(error)s") % {"error": error})
    except services.RankingRefused as refused:
        messages.error(request, str(refused))
    return redirect("rankings:tournaments", ranking.pk)


@require_POST
@director_required
def tournament_remove(request: HttpRequest, ranking: Ranking, entry_id: int) -> HttpResponse:
    entry = get_object_or_404(RankingTournament.objects.select_related("tournament"), pk=entry_id, ranking=ranking)
    services.remove_tournament(entry)
    messages.success(request, _("%(tournament)s no longer counts in this ranking.") % {"tournament": entry.tournament})
    return redirect("rankings:tournaments", ranking.pk)


@require_POST
@director_required
def refresh(request: HttpRequest, ranking: Ranking) -> HttpResponse:
    count = services.refresh(ranking)
    messages.success(
        request,
        ngettext(
            "The results of %(n)s tournament are read again and the ranking computed, in the background.",
            "The results of %(n)s tournaments are read again and the ranking computed, in the background.",
            count,
        )
        % {"n": count},
    )
    return redirect("rankings:tournaments", ranking.pk)


@director_required
def player(request: HttpRequest, ranking: Ranking, player_id: int) -> HttpResponse:
    background.seen(ranking)
    context = player_context(ranking, player_id, request.GET.get("category", ""))
    record = get_object_or_404(Player.objects.select_related("club"), pk=player_id)
    surname = record.sort_key.split(" ")[0][:3]
    in_ranking = RankingResult.objects.filter(entry__ranking=ranking).values("player_id")
    merged = PersonDecision.objects.filter(ranking=ranking, same=True, undone_at__isnull=True)
    merged = merged.filter(Q(player_id=player_id) | Q(other_id=player_id)).values_list("player_id", "other_id")
    context |= {
        "staff": True,
        "record": record,
        "candidates": Player.objects.filter(pk__in=in_ranking, sort_key__startswith=surname)
        .exclude(pk__in={player_id, *(pk for pair in merged for pk in pair)})
        .select_related("club")[:50],
        "decisions": PersonDecision.objects.filter(ranking=ranking)
        .filter(Q(player_id=player_id) | Q(other_id=player_id))
        .select_related("player__club", "other__club", "decided_by", "undone_by"),
        "form": DecisionForm(initial={"player": player_id, "same": "1"}),
    }
    return render(request, "rankings/player.html", context)


@director_required
def who_is_who(request: HttpRequest, ranking: Ranking) -> HttpResponse:
    context = {
        "ranking": ranking,
        "doubtful": (shown := people.doubtful(ranking)),
        "more": max(0, ranking.doubtful - len(shown)),
        "contradicted": people.contradicted(ranking),
        "decisions": PersonDecision.objects.filter(ranking=ranking).select_related(
            "player__club", "other__club", "decided_by", "undone_by"
        ),
    }
    return render(request, "rankings/people.html", context)


@require_POST
@director_required
def decide(request: HttpRequest, ranking: Ranking) -> HttpResponse:
    form = DecisionForm(request.POST)
    # The player's page asks to come back to it; the who-is-who page is the default.
    back = request.POST.get("back") == "player"
    if not form.is_valid():
        problems = "; ".join(f"{form[f].label}: {' '.join(e)}" for f, e in form.errors.items() if f in form.fields)
        messages.error(request, problems)
    else:
        data = form.cleaned_data
        # Only records with a result in this ranking are looked up: an id from anywhere else
        # reads like one that does not exist, and no name is shown.
        found = people.records_in(ranking, [data["player"], data["other"]])
        if data["player"] == data["other"]:
            messages.error(request, _("Choose two different player records."))
        elif len(found) < 2:
            messages.error(request, people.NOT_IN_RANKING)
        else:
            try:
                people.decide(
                    ranking,
                    found[data["player"]],
                    found[data["other"]],
                    request.user,
                    data["reason"],
                    same=data["same"],
                )
            except services.RankingRefused as refused:
                messages.error(request, str(refused))
            else:
                messages.success(
                    request,
                    _("Merged: the two records count as one person.")
                    if data["same"]
                    else _("Kept apart: the two records count as two people."),
                )
        if back and data["player"] in found:
            return redirect("rankings:player", ranking.pk, data["player"])
    return redirect("rankings:people", ranking.pk)


@require_POST
@director_required
def undo(request: HttpRequest, ranking: Ranking, decision_id: int) -> HttpResponse:
    decision = get_object_or_404(PersonDecision, pk=decision_id, ranking=ranking)
    try:
        people.undo(decision, request.user)
    except services.RankingRefused as refused:
        messages.error(request, str(refused))
    else:
        messages.success(request, _("The decision is undone (it stays in the record, marked undone)."))
    return redirect("rankings:people", ranking.pk)
