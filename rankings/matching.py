"""Who is who across the tournaments of a ranking: player records matched into people.

A record (a :class:`tournaments.models.Player`) is one person in every tournament that
registered it, and a membership number belongs to one record only, so a number matches
by itself. Records without a conflicting number are matched **by name and club**: the
same words of the name (any order, any spelling of umlauts) and the same club. Two
records are never one person when they carry different membership numbers or played in
one tournament together (two people, whatever their names).

**Doubtful** pairs are shown to the director and matched only by his word: the same name
in another club (or without one), or names alike in one club (the same surname and
initial, or a spelling two letters apart: "Jürgen Maier", "Jurgen Meier"). His word is
a :class:`rankings.models.PersonDecision`: one person (a merge) or two.

Plain Python over the records' fields: no query, no guess.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from itertools import combinations

from tournaments.names import fold, split_name

#: Spellings at most this many letters apart are alike (a typo, a letter swapped).
ALIKE = 2


@dataclass(frozen=True)
class Record:
    pk: int
    name: str
    club: str
    membership_number: str


@dataclass
class Matching:
    #: Every record's person: the record the person is shown as.
    person_of: dict[int, int]
    #: (record, record, why) pairs waiting for the director's word; why: "club" (the same
    #: name in another club), "initial" (same surname and initial), "spelling" (alike).
    doubtful: list[tuple[int, int, str]] = field(default_factory=list)
    #: Records joined to another by name and club.
    by_name: int = 0
    #: Merges (record, record) not applied: the two records played in one tournament.
    contradicted: list[tuple[int, int]] = field(default_factory=list)


def name_key(name: str) -> str:
    return " ".join(sorted(fold(word) for word in name.split() if fold(word)))


def distance(a: str, b: str, limit: int = ALIKE) -> int:
    """Levenshtein distance within a band of ``limit`` around the diagonal, stopped once
    above ``limit`` (the answer is then limit + 1): a pair of unlike names costs a few steps."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    far = limit + 1
    previous = [j if j <= limit else far for j in range(len(b) + 1)]
    for i, char in enumerate(a, start=1):
        current = [i if i <= limit else far] + [far] * len(b)
        for j in range(max(1, i - limit), min(len(b), i + limit) + 1):
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (char != b[j - 1]), far)
        if min(current) > limit:
            return far
        previous = current
    return previous[-1]


class _People:
    """Union-find over records; a person's records never played together or carry two numbers."""

    def __init__(self, records: Mapping[int, Record], played_in: Mapping[int, set]) -> None:
        self.parent = {pk: pk for pk in records}
        self.records = records
        self.played_in = played_in
        self.members = {pk: {pk} for pk in records}

    def find(self, pk: int) -> int:
        while self.parent[pk] != pk:
            self.parent[pk] = self.parent[self.parent[pk]]
            pk = self.parent[pk]
        return pk

    def conflict(self, a: int, b: int) -> str | None:
        """Why the persons of ``a`` and ``b`` are two people (None: they may be one)."""
        left, right = self.members[self.find(a)], self.members[self.find(b)]
        numbers = {self.records[pk].membership_number for pk in left | right} - {""}
        if len(numbers) > 1:
            return "numbers"
        played_left = set().union(*(self.played_in.get(pk, set()) for pk in left))
        if any(self.played_in.get(pk, set()) & played_left for pk in right):
            return "together"
        return None

    def join(self, a: int, b: int) -> None:
        root_a, root_b = self.find(a), self.find(b)
        if root_a != root_b:
            keep, gone = sorted((root_a, root_b), key=self._show_first)
            self.parent[gone] = keep
            self.members[keep] |= self.members.pop(gone)

    def _show_first(self, pk: int) -> tuple:
        """The record a person is shown as: one with a membership number, else the oldest."""
        return (not self.records[pk].membership_number, pk)


def match(
    records: Mapping[int, Record],
    played_in: Mapping[int, set],
    decisions: Iterable[tuple[int, int, bool]] = (),
) -> Matching:
    """The people of the ranking: ``played_in`` gives each record the tournaments it played
    in; ``decisions`` the director's (record, record, one person?) in force. A merge that
    a later tournament contradicts (both records played in it) is not applied: it is
    listed in ``contradicted``."""
    people = _People(records, played_in)
    decided = {}
    contradicted = []
    for a, b, same in decisions:
        decided[frozenset((a, b))] = same
        if same and a in records and b in records:
            if people.conflict(a, b):
                contradicted.append((a, b))
            else:
                people.join(a, b)
    # Each record's spellings, folded once: (name key, club, surname, first initial).
    looks = {}
    for pk, record in records.items():
        surname, first = split_name(record.name)
        looks[pk] = (name_key(record.name), record.club, fold(surname), fold(first)[:1])
    by_name = 0
    groups: dict[tuple[str, str], list[int]] = defaultdict(list)
    for pk in sorted(records):
        groups[looks[pk][:2]].append(pk)
    for members in groups.values():
        for a, b in combinations(members, 2):
            undecided = decided.get(frozenset((a, b))) is not False
            if people.find(a) != people.find(b) and undecided and people.conflict(a, b) is None:
                people.join(a, b)
                by_name += 1
    doubtful = _doubtful(looks, people, decided)
    return Matching({pk: people.find(pk) for pk in records}, doubtful, by_name, contradicted)


def _doubtful(looks: Mapping[int, tuple], people: _People, decided: Mapping) -> list[tuple[int, int, str]]:
    """Pairs that look alike, compared within buckets: the same name (in any club); in one
    club, the same first letter of the surname (a typo there is rare), so 3,000 records
    cost a few thousand comparisons. The costlier check for two people comes last."""
    buckets: dict[tuple, list[int]] = defaultdict(list)
    for pk in sorted(looks):
        key, club, surname, _initial = looks[pk]
        buckets["name", key].append(pk)
        buckets["club", club, surname[:1]].append(pk)
    found = {}
    for members in buckets.values():
        for a, b in combinations(members, 2):
            why = _alike(looks[a], looks[b])
            if not why or frozenset((a, b)) in decided:
                continue
            pair = frozenset((people.find(a), people.find(b)))
            if len(pair) == 1 or pair in found or people.conflict(a, b):
                continue
            found[pair] = (a, b, why)
    return list(found.values())


def _alike(a: tuple[str, str, str, str], b: tuple[str, str, str, str]) -> str:
    """Why two records (name key, club, folded surname, initial) may be one person ("" when
    they do not look alike)."""
    (key_a, club_a, surname_a, initial_a), (key_b, club_b, surname_b, initial_b) = a, b
    if key_a == key_b:
        return "club" if club_a != club_b else ""
    if club_a != club_b:
        return ""
    if surname_a == surname_b and initial_a == initial_b:
        return "initial"
    return "spelling" if distance(key_a, key_b) <= ALIKE else ""
