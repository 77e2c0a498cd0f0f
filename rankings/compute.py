"""The ranking computed and stored: the results as read, the people matched, the engine's
arithmetic per category, one :class:`RankingLine` per person and category.

Run after every change (a tournament added or read again, the rules, a merge) in the
background (rankings.background), so a page reads one page of stored lines: at 200
tournaments and 3,000 players the ranking's page costs a few milliseconds instead of the
whole computation. The computation works in memory (:func:`in_memory`) and writes its
lines in one short transaction at the end (:func:`store`): readers never see half, and
nobody waits for the database's write lock while it computes.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from skat.yearly import Entry, Held, RankingRuleError, Rules, SeriesResult, as_text, compute
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


@dataclass
class Computed:
    """A computation's outcome, held in memory until it is stored."""

    lines: list[RankingLine]
    problem: str
    doubtful: list
    contradicted: list


def problem_text(error: RankingRuleError) -> str:
    """The refusal as the pages and messages say it, naming the rule."""
    return _("the rule “%(field)s” cannot be computed: %(message)s") % {
        "field": field_label(error.field),
        "message": rule_text(error),
    }


def in_memory(ranking: Ranking) -> Computed:
    """The ranking's lines computed in memory (reads only: no write lock is held); the
    problem as a sentence when the rules cannot be computed (then no line)."""
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
            ranked = compute(rules, held, {p: entries[p] for p in persons}, name_of=lambda p: (sort_of[p], p))
            lines += [_line(ranking, category, position, line, loaded) for position, line in enumerate(ranked, 1)]
        problem = ""
    except RankingRuleError as error:
        problem = problem_text(error)
        lines = []
    return Computed(
        lines,
        problem[:300],
        [list(pair) for pair in loaded.matching.doubtful],
        [list(pair) for pair in loaded.matching.contradicted],
    )


def store(ranking: Ranking, result: Computed) -> None:
    """Replace the stored lines in one transaction (the caller's, when it holds one)."""
    with transaction.atomic():
        RankingLine.objects.filter(ranking=ranking).delete()
        RankingLine.objects.bulk_create(result.lines, batch_size=2000)
        ranking.computed_at = timezone.now()
        ranking.problem = result.problem
        ranking.doubtful = len(result.doubtful)
        ranking.doubtful_pairs = result.doubtful
        ranking.contradicted_pairs = result.contradicted
        ranking.save(update_fields=["computed_at", "problem", "doubtful", "doubtful_pairs", "contradicted_pairs"])


def compute_lines(ranking: Ranking) -> str:
    """Compute and store the ranking's lines at once, in the caller's thread (the bench's
    set-up; the office computes in the background): the problem, else ""."""
    result = in_memory(ranking)
    store(ranking, result)
    return result.problem


def check_held(ranking: Ranking, rules: Rules | None = None) -> str:
    """Whether the ranking's tournaments, as read, fit its rules (no more held than
    planned): the problem as a sentence, else "". Two queries, no result read, so a
    change is refused at once while the lines are computed in the background."""
    rules = rules or ranking.rules()
    rows = RankingTournament.objects.filter(ranking=ranking).order_by("tournament__date", "tournament__name", "pk")
    held = [Held(pk, tuple(sorted(numbers))) for pk, numbers in rows.values_list("pk", "held") if numbers]
    try:
        compute(rules, held, {})
    except RankingRuleError as error:
        return problem_text(error)[:300]
    return ""


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
