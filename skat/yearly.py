"""Rankings over many tournaments: a club's year of evenings, a cup, a Jahreswertung.

Clubs and regional groups keep their own formula (DOMAIN, "Annual and cup rankings"),
so every choice is a rule of :class:`Rules`, which the director edits:

- **what counts** (``counts``): the extended Seeger-Fabian rating (``"rating"``), the
  game points (``"game_points"``: the declarer's scores alone, 5.5.1), or points per
  place from the ranking's own table (``"place_points"``: place 1 gets the first row,
  a place beyond the table gets 0);
- **one result** (``unit``) is a whole tournament (its series added up, its final place)
  or each series on its own (its place in that series);
- **best N** (``best``): only a player's N best results count, the others are dropped
  (and listed as dropped); ``planned`` is M, the results the season plans to hold, and a
  ranking of "best 8 of 5" is refused naming ``best``;
- **sum or average** (``aggregate``) of the counted results; an average is exact
  (a :class:`fractions.Fraction`), printed with two decimals;
- **a penalty per missed result** (``penalty``): a player who played fewer results
  than count (N, or all held when every result counts) loses ``penalty`` per missing
  one from his sum or average;
- **a minimum** (``minimum``) of results to be ranked; players below it are listed
  after the ranked ones without a place;
- **tie-breaks** (``tie_breaks``, in order): ``"counted"`` more counted results,
  ``"played"`` more results played, ``"best"`` the higher best counted result,
  ``"latest"`` the higher result in the latest unit held. Players equal after all of
  them share the place (1, 2, 2, 4), as a ranking list prints them.

Pure Python: the rankings app reads every tournament's results into :class:`Entry`
rows and calls :func:`compute`; a rule that cannot be computed raises
:class:`RankingRuleError` naming the field.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Generic, NamedTuple, TypeVar

from .terms import gettext_noop

K = TypeVar("K", bound=Hashable)

COUNTS = ("rating", "game_points", "place_points")
UNITS = ("tournament", "series")
AGGREGATES = ("sum", "average")
TIE_BREAKS = ("counted", "played", "best", "latest")


class RankingRuleError(ValueError):
    """A rule the ranking cannot compute: ``field`` names the rule, the message says why.

    ``template`` and ``params`` keep the message translatable (the pages show it in the
    reader's language): ``message == template.format(**params)``."""

    def __init__(self, field: str, template: str, **params: object) -> None:
        self.field = field
        self.template = template
        self.params = params
        self.message = template.format(**params)
        super().__init__(f"{field}: {self.message}")


@dataclass(frozen=True)
class Rules:
    """How a ranking over many tournaments is computed (the module's docstring explains each)."""

    counts: str = "rating"
    unit: str = "tournament"
    aggregate: str = "sum"
    best: int | None = None
    planned: int | None = None
    minimum: int = 0
    penalty: int = 0
    place_points: tuple[int, ...] = ()
    tie_breaks: tuple[str, ...] = ("counted", "best")

    def check(self) -> Rules:
        """The rules themselves, before any result: each refusal names its field."""
        self._check_choices()
        self._check_best_of_planned()
        self._check_minimum_and_penalty()
        self._check_place_points()
        self._check_tie_breaks()
        return self

    def _check_choices(self) -> None:
        """What counts, the unit and the aggregate are among the choices."""
        for name, value, allowed in (
            ("counts", self.counts, COUNTS),
            ("unit", self.unit, UNITS),
            ("aggregate", self.aggregate, AGGREGATES),
        ):
            if value not in allowed:
                raise RankingRuleError(
                    name,
                    gettext_noop("must be one of {allowed}, not {value}"),
                    allowed=", ".join(allowed),
                    value=repr(value),
                )

    def _check_best_of_planned(self) -> None:
        """Best N and planned M are at least 1 or empty, and N is no more than M."""
        for name, value in (("best", self.best), ("planned", self.planned)):
            if value is not None and (not _is_int(value) or value < 1):
                raise RankingRuleError(
                    name, gettext_noop("must be at least 1 (or empty), not {value}"), value=repr(value)
                )
        if self.best is not None and self.planned is not None and self.best > self.planned:
            raise RankingRuleError(
                "best",
                gettext_noop("best {best} of {planned} cannot be counted"),
                best=self.best,
                planned=self.planned,
            )

    def _check_minimum_and_penalty(self) -> None:
        """The minimum and the penalty are not negative; the minimum can be reached."""
        for name, value in (("minimum", self.minimum), ("penalty", self.penalty)):
            if not _is_int(value) or value < 0:
                raise RankingRuleError(name, gettext_noop("must not be negative, not {value}"), value=repr(value))
        if self.planned is not None and self.minimum > self.planned:
            raise RankingRuleError(
                "minimum",
                gettext_noop("{minimum} results of {planned} planned cannot be reached"),
                minimum=self.minimum,
                planned=self.planned,
            )

    def _check_place_points(self) -> None:
        """Points per place: at least the first place's, none negative."""
        if self.counts == "place_points":
            if not self.place_points:
                raise RankingRuleError(
                    "place_points", gettext_noop("points per place need at least the first place's points")
                )
            if any(not _is_int(p) or p < 0 for p in self.place_points):
                raise RankingRuleError("place_points", gettext_noop("the points of a place must not be negative"))

    def _check_tie_breaks(self) -> None:
        """Tie-breaks among the known ones, each named once."""
        unknown = [t for t in self.tie_breaks if t not in TIE_BREAKS]
        if unknown:
            raise RankingRuleError(
                "tie_breaks",
                gettext_noop("must be among {allowed}, not {value}"),
                allowed=", ".join(TIE_BREAKS),
                value=repr(unknown[0]),
            )
        if len(set(self.tie_breaks)) != len(self.tie_breaks):
            raise RankingRuleError("tie_breaks", gettext_noop("each tie-break may be named once"))


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class SeriesResult(NamedTuple):
    """A player's result in one series of a tournament (his place in that series' standings).
    A named tuple: a ranking of 200 tournaments reads some 200,000 of them."""

    number: int
    rating: int
    game_points: int
    place: int


@dataclass(frozen=True)
class Entry:
    """A player's result in one tournament: his final place and each series he played."""

    tournament: Hashable
    place: int
    series: tuple[SeriesResult, ...]


@dataclass(frozen=True)
class Held:
    """A tournament of the ranking as held: its key and the numbers of its series played."""

    tournament: Hashable
    series: tuple[int, ...]


@dataclass(frozen=True)
class Result:
    """One result as the ranking sees it: a tournament (``series`` None) or one series of it."""

    tournament: Hashable
    series: int | None
    value: int
    #: Its position among the units held, 0 the earliest: the "latest" tie-break reads it.
    order: int


@dataclass
class Line(Generic[K]):
    """A player's line: his figure, what counted and what was dropped, his place (None: unranked)."""

    person: K
    value: Fraction
    counted: tuple[Result, ...]
    dropped: tuple[Result, ...]
    played: int
    missed: int
    penalty: int
    place: int | None = None
    #: The tie-break that set him below the line above (None: the value did, or the first).
    decided_by: str | None = None
    shared: bool = False
    tie_key: tuple = field(default=(), repr=False)

    @property
    def ranked(self) -> bool:
        return self.place is not None


def held_units(rules: Rules, held: Sequence[Held]) -> list[tuple[Hashable, int | None]]:
    """The units held, in order: one per tournament, or one per series played."""
    if rules.unit == "tournament":
        return [(h.tournament, None) for h in held]
    return [(h.tournament, number) for h in held for number in h.series]


def results_of(rules: Rules, entries: Iterable[Entry], order: Mapping[tuple, int]) -> list[Result]:
    """A player's results under ``rules``: a tournament's series added up, or each series."""
    found = []
    for entry in entries:
        if rules.unit == "tournament":
            rating, game_points = sum(s.rating for s in entry.series), sum(s.game_points for s in entry.series)
            value = _value(rules, rating, game_points, entry.place)
            found.append(Result(entry.tournament, None, value, order[entry.tournament, None]))
        else:
            for s in entry.series:
                value = _value(rules, s.rating, s.game_points, s.place)
                found.append(Result(entry.tournament, s.number, value, order[entry.tournament, s.number]))
    return found


def _value(rules: Rules, rating: int, game_points: int, place: int) -> int:
    if rules.counts == "rating":
        return rating
    if rules.counts == "game_points":
        return game_points
    return rules.place_points[place - 1] if 1 <= place <= len(rules.place_points) else 0


def line_of(rules: Rules, person: K, results: Sequence[Result], held: int) -> Line[K]:
    """One player's figure: the best N counted (ties: the earlier result), the rest dropped,
    the penalty for each result short of those that count, his sum or average."""
    ordered = sorted(results, key=lambda r: (-r.value, r.order))
    target = held if rules.best is None else min(rules.best, held)
    counted, dropped = ordered[:target], ordered[target:]
    missed = max(0, target - len(results))
    penalty = missed * rules.penalty
    total = Fraction(sum(r.value for r in counted))
    if rules.aggregate == "average" and counted:
        total /= len(counted)
    latest = max(results, key=lambda r: r.order).value if results else 0
    keys = {
        "counted": len(counted),
        "played": len(results),
        "best": counted[0].value if counted else 0,
        "latest": latest,
    }
    return Line(
        person=person,
        value=total - penalty,
        counted=tuple(sorted(counted, key=lambda r: r.order)),
        dropped=tuple(sorted(dropped, key=lambda r: r.order)),
        played=len(results),
        missed=missed,
        penalty=penalty,
        tie_key=tuple(keys[name] for name in rules.tie_breaks),
    )


def compute(
    rules: Rules,
    held: Sequence[Held],
    entries: Mapping[K, Iterable[Entry]],
    name_of: Callable[[K], str] = str,
) -> list[Line[K]]:
    """The ranking: every player's :class:`Line`, the ranked first (best first, equal ones
    sharing a place and listed by ``name_of``), then those short of the minimum.

    Refused (:class:`RankingRuleError`): rules that cannot be computed, more units held
    than ``planned``, a result in a tournament or series not held.
    """
    rules.check()
    units = held_units(rules, held)
    if len(set(units)) != len(units):
        raise RankingRuleError("tournaments", gettext_noop("a tournament is in the ranking twice"))
    if rules.planned is not None and len(units) > rules.planned:
        raise RankingRuleError(
            "planned",
            gettext_noop("{held} results are held, more than the {planned} planned"),
            held=len(units),
            planned=rules.planned,
        )
    order = {unit: i for i, unit in enumerate(units)}
    lines = []
    for person, person_entries in entries.items():
        person_entries = list(person_entries)
        for entry in person_entries:
            wanted = [(entry.tournament, None)] if rules.unit == "tournament" else []
            wanted += [(entry.tournament, s.number) for s in entry.series if rules.unit == "series"]
            if any(unit not in order for unit in wanted):
                raise RankingRuleError(
                    "tournaments", gettext_noop("a result of {person} is in a tournament not held"), person=person
                )
        lines.append(line_of(rules, person, results_of(rules, person_entries, order), len(units)))
    ranked = sorted(
        (line for line in lines if line.played >= rules.minimum and line.played),
        key=lambda line: (-line.value, *(-k for k in line.tie_key), name_of(line.person)),
    )
    unranked = sorted(
        (line for line in lines if line.played < rules.minimum or not line.played),
        key=lambda line: (-line.played, -line.value, name_of(line.person)),
    )
    _places(ranked, rules.tie_breaks)
    return ranked + unranked


def _places(ranked: list[Line], tie_breaks: Sequence[str]) -> None:
    """Places with ties shared: equal value and equal tie-breaks, the same place (1, 2, 2, 4)."""
    previous: Line | None = None
    for index, line in enumerate(ranked, start=1):
        if previous is not None and (line.value, line.tie_key) == (previous.value, previous.tie_key):
            line.place = previous.place
            line.shared = previous.shared = True
            continue
        line.place = index
        if previous is not None and line.value == previous.value:
            line.decided_by = next(
                name for name, a, b in zip(tie_breaks, line.tie_key, previous.tie_key, strict=True) if a != b
            )
        previous = line


def as_text(value: Fraction) -> str:
    """A figure as a ranking list prints it: an integer as is, an average with two decimals
    (rounded half away from zero, as by hand)."""
    if value.denominator == 1:
        return str(value.numerator)
    cents = abs(value) * 100
    whole = int(cents + Fraction(1, 2))
    sign = "-" if value < 0 else ""
    return f"{sign}{whole // 100}.{whole % 100:02d}"
