"""The ranking's pages for everyone once it is published (its directors see them before:
a preview), and its files (PDF, CSV, XLSX) for directors and, published, for everyone."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from . import background, documents
from .models import Ranking
from .pages import categories, chosen_category, player_context, ranking_context
from .permissions import director_required, published


def published_list(request: HttpRequest) -> HttpResponse:
    rankings = Ranking.objects.filter(public=True).order_by("-created_at")
    return render(request, "rankings/published.html", {"rankings": rankings})


@published
def ranking(request: HttpRequest, ranking: Ranking) -> HttpResponse:
    background.seen(ranking)
    return render(request, "rankings/ranking.html", ranking_context(request, ranking, staff=False))


@published
def player(request: HttpRequest, ranking: Ranking, player_id: int) -> HttpResponse:
    background.seen(ranking)
    context = player_context(ranking, player_id, request.GET.get("category", ""))
    return render(request, "rankings/player.html", context | {"staff": False})


def _file(request: HttpRequest, ranking: Ranking, kind: str) -> HttpResponse:
    background.seen(ranking)
    category = chosen_category(request, categories(ranking))
    if kind == "pdf":
        return documents.pdf_response(ranking, category)
    if kind == "csv":
        return documents.csv_response(ranking, category)
    if kind == "xlsx":
        return documents.xlsx_response(ranking, category)
    raise Http404("No such file.")


@published
def public_file(request: HttpRequest, ranking: Ranking, kind: str) -> HttpResponse:
    return _file(request, ranking, kind)


@director_required
def staff_file(request: HttpRequest, ranking: Ranking, kind: str) -> HttpResponse:
    return _file(request, ranking, kind)
