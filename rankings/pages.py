"""What the ranking's pages show, for its directors and (once published) for everyone:
one page of stored lines (searched, per category), a player's line with every result.

The lines are computed on every change (rankings.compute), so a page costs a few
queries whatever the number of tournaments and players."""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlencode

from django.http import Http404, HttpRequest
from django.urls import reverse

from core.paging import page_of
from tournaments.names import query_words

from .models import Ranking, RankingLine, RankingTournament

#: The longest search text read.
QUERY_LENGTH = 100
LINE_FIELDS = (
    "position",
    "place",
    "shared",
    "player_id",
    "name",
    "club",
    "value",
    "played",
    "counted",
    "missed",
    "penalty",
)


def categories(ranking: Ranking) -> list[str]:
    """The ranking's categories (each ranked on its own), by name."""
    found = RankingLine.objects.filter(ranking=ranking).exclude(category="").order_by("category")
    return list(found.values_list("category", flat=True).distinct())


def chosen_category(request: HttpRequest, names: list[str]) -> str:
    """``?category=`` when the ranking has it, else the overall ranking ("")."""
    name = request.GET.get("category", "")
    return name if name in names else ""


def searched(lines, query: str):
    for word in query_words(query[:QUERY_LENGTH]):
        lines = lines.filter(search_key__contains=f" {word}")
    return lines


def ranking_context(request: HttpRequest, ranking: Ranking, *, staff: bool) -> dict:
    names = categories(ranking)
    category = chosen_category(request, names)
    query = request.GET.get("q", "")[:QUERY_LENGTH]
    lines = RankingLine.objects.filter(ranking=ranking, category=category).order_by("position").only(*LINE_FIELDS)
    # The players' links from one reverse (50 rows: no URL resolving per row).
    name = "rankings:player" if staff else "public:ranking_player"
    players_url = reverse(name, args=[ranking.pk, 0]).removesuffix("0/")
    return {
        "staff": staff,
        "players_url": players_url,
        "category_query": f"?{urlencode({'category': category})}" if category else "",
        "ranking": ranking,
        "rules": rules_summary(ranking),
        "categories": names,
        "category": category,
        "query": query,
        "page": page_of(request, searched(lines, query)),
        "tournament_count": RankingTournament.objects.filter(ranking=ranking).count(),
    }


def rules_summary(ranking: Ranking) -> list[tuple[str, str]]:
    """The rules as (label, value) pairs, in the page's language."""
    from django.utils.translation import gettext as _

    summary = [
        (_("what counts"), ranking.get_counts_display()),
        (_("one result is"), ranking.get_unit_display()),
        (_("results added as"), ranking.get_aggregate_display()),
        (_("best N count"), str(ranking.best) if ranking.best else _("all")),
    ]
    if ranking.planned:
        summary.append((_("of M planned"), str(ranking.planned)))
    summary += [
        (_("minimum results to be ranked"), str(ranking.minimum)),
        (_("penalty per missed result"), str(ranking.penalty)),
    ]
    ties = [ranking.TieBreak(t).label for t in (ranking.tie_break_1, ranking.tie_break_2, ranking.tie_break_3) if t]
    summary.append((_("tie-breaks"), ", ".join(str(t) for t in ties) or _("none: equal players share the place")))
    return summary


@dataclass
class ResultRow:
    tournament: str
    date: object
    series: int | None
    value: int
    counted: bool


def player_context(ranking: Ranking, player_id: int, category: str = "") -> dict:
    """A player's line: his place and figure, every result that counted and every one dropped."""
    lines = {line.category: line for line in RankingLine.objects.filter(ranking=ranking, player_id=player_id)}
    line = lines.get(category) or lines.get("")
    if line is None:
        raise Http404("No line of this player in the ranking.")
    played = {result[0] for result in line.results}
    entries = RankingTournament.objects.filter(ranking=ranking, pk__in=played).select_related("tournament")
    entries = {e.pk: e.tournament for e in entries.only("pk", "tournament__name", "tournament__date")}
    rows = [
        ResultRow(entries[entry].name, entries[entry].date, series, value, counted)
        for entry, series, value, counted in line.results
        if entry in entries
    ]
    return {
        "ranking": ranking,
        "line": line,
        "category_lines": [lines[name] for name in sorted(lines) if name != line.category],
        "results": rows,
        "counted": [r for r in rows if r.counted],
        "dropped": [r for r in rows if not r.counted],
    }
