"""The ranking computed and stored: the results as read, the people matched, the engine's
arithmetic per category, one :class:`RankingLine` per person and category.

Run on every change (a tournament added or read again, the rules, a merge), so a page
reads one page of stored lines: at 200 tournaments and 3,000 players the ranking's
page costs a few milliseconds instead of the whole computation.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from skat.yearly import Entry, Held, RankingRuleError, SeriesResult, as_text, compute
from tournaments.models import Player

from .matching import Matching, Record, match
from .models import PersonDecision, Ranking, RankingLine, RankingResult, RankingTournament, field_label, rule_text


@dataclass
class Loaded:
    """Everything one computation reads: five queries whatever the size."""

    entries: list[tuple[int, str]]
    results: list[tuple[int, int, int, str, list]]
    records: dict[int, Record]
    keys: dict[int, tuple[str, str]]
    played_in: dict[int, set[int]] = field(default_factory=dict)
    matching: Matching | None = None


def load(ranking: Ranking) -> Loaded:
    """The ranking's tournaments in order, their results, the records and the people."""
    entries = list(
        RankingTournament.objects.filter(ranking=ranking)
        .order_by("tournament__date", "tournament__name", "pk")
        .values_list("pk", "tournament__name")
    )
    results = list(
        RankingResult.objects.filter(entry__ranking=ranking)
        .order_by()
        .values_list("entry_id", "player_id", "place", "category", "series")
    )
    ids = {row[1] for row in results}
    people = (
        Player.objects.filter(pk__in=ids)
        .order_by()
        .values_list("pk", "name", "club__name", "membership_number", "search_key", "sort_key")
    )
    records, keys = {}, {}
    for pk, name, club, number, search, sort in people:
        records[pk] = Record(pk, name, club or "", number)
        keys[pk] = (search, sort)
    loaded = Loaded(entries, results, records, keys)
    for entry_id, player_id, *_rest in results:
        loaded.played_in.setdefault(player_id, set()).add(entry_id)
    decisions = PersonDecision.objects.filter(ranking=ranking, undone_at__isnull=True).order_by("decided_at", "pk")
    loaded.matching = match(records, loaded.played_in, decisions.values_list("player_id", "other_id", "same"))
    return loaded


def compute_lines(ranking: Ranking) -> str:
    """Compute and store the ranking's lines; the problem as a sentence when the rules
    cannot be computed (then no line is stored and the pages say why), else ""."""
    loaded = load(ranking)
    person_of = loaded.matching.person_of
    held_series: dict[int, set[int]] = defaultdict(set)
    entries: dict[int, list[Entry]] = defaultdict(list)
    categories: dict[int, set[str]] = defaultdict(set)
    for entry_id, player_id, place, category, series in loaded.results:
        person = person_of[player_id]
        held_series[entry_id].update(s[0] for s in series)
        entries[person].append(Entry(entry_id, place, tuple(SeriesResult(*s) for s in series)))
        if category:
            categories[person].add(category)
    held = [Held(pk, tuple(sorted(held_series[pk]))) for pk, _name in loaded.entries if held_series[pk]]
    rules = ranking.rules()
    sort_of = {pk: keys[1] for pk, keys in loaded.keys.items()}
    lines = []
    try:
        scopes = [("", list(entries))]
        for name in sorted({c for names in categories.values() for c in names}):
            scopes.append((name, [p for p in entries if name in categories[p]]))
        for category, persons in scopes:
            computed = compute(rules, held, {p: entries[p] for p in persons}, name_of=lambda p: (sort_of[p], p))
            lines += [_line(ranking, category, position, line, loaded) for position, line in enumerate(computed, 1)]
        problem = ""
    except RankingRuleError as error:
        problem = _("the rule “%(field)s” cannot be computed: %(message)s") % {
            "field": field_label(error.field),
            "message": rule_text(error),
        }
        lines = []
    with transaction.atomic():
        RankingLine.objects.filter(ranking=ranking).delete()
        RankingLine.objects.bulk_create(lines, batch_size=2000)
        ranking.computed_at = timezone.now()
        ranking.problem = problem[:300]
        ranking.doubtful = len(loaded.matching.doubtful)
        ranking.doubtful_pairs = [list(pair) for pair in loaded.matching.doubtful]
        ranking.contradicted_pairs = [list(pair) for pair in loaded.matching.contradicted]
        ranking.save(update_fields=["computed_at", "problem", "doubtful", "doubtful_pairs", "contradicted_pairs"])
    return problem


def _line(ranking: Ranking, category: str, position: int, line, loaded: Loaded) -> RankingLine:
    record = loaded.records[line.person]
    counted = {id(r) for r in line.counted}
    every = sorted((*line.counted, *line.dropped), key=lambda r: r.order)
    results = [[r.tournament, r.series, r.value, id(r) in counted] for r in every]
    return RankingLine(
        ranking=ranking,
        category=category,
        position=position,
        place=line.place,
        shared=line.shared,
        player_id=line.person,
        name=record.name,
        club=record.club,
        search_key=loaded.keys[line.person][0],
        value=as_text(line.value),
        played=line.played,
        counted=len(line.counted),
        missed=line.missed,
        penalty=line.penalty,
        decided_by=line.decided_by or "",
        results=results,
    )
