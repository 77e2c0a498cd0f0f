"""The table draw: players onto tables of four and three, pure and reproducible.

Practice (DOMAIN, 3.1.1): as many tables of four as possible, the rest tables of
three; the first series at random, later series at random or seeded by the standings
(best players together); team-mates never at one table, and players who already met
and club-mates kept apart as far as the draw can. The same seed and input always give
the same draw, so a director can reproduce and explain it.

How: an initial assignment (shuffled, or cut from the ranking), then local search:
every player involved in a conflict tries swaps with players at other tables (any
table in a random draw, neighbouring tables in a seeded one so the seeding holds) and
keeps a swap that lowers the penalty of the two tables. Penalties are weighted so a
team-mate pair outweighs any number of repeat meetings, and a repeat meeting outweighs
club-mates.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from itertools import combinations

from .rules import RuleError, gettext_noop

PlayerId = Hashable

#: Penalty of one pair at a table.
TEAM_WEIGHT = 1_000_000
MET_WEIGHT = 100
CLUB_WEIGHT = 1


def table_sizes(players: int) -> list[int]:
    """As many tables of four as possible, the rest of three: n = 4a + 3b.

    Fours come first, so the tables of three are the last numbers. Five players, or
    fewer than three, cannot be seated.
    """
    if players < 3 or players == 5:
        raise RuleError(
            "players",
            gettext_noop(
                "{players} players cannot be seated at tables of three and four; "
                "add or withdraw players (3, 4 and every number from 6 work)"
            ),
            "3.2.7",
            players=players,
        )
    threes = (-players) % 4  # 0, 3, 2, 1 tables of three for n mod 4 = 0, 1, 2, 3
    fours = (players - 3 * threes) // 4
    return [4] * fours + [3] * threes


def table_sizes_apart(players: int, team_sizes: Iterable[int] = ()) -> list[int]:
    """The tables for ``players`` when team-mates must sit apart: as many tables of four as
    possible while every team can have its own seat at a different table, i.e. at least as
    many tables as the largest team has players.

    Twelve players of three teams of four cannot sit apart at three tables of four, but
    can at four tables of three (one of each team at each); where no count of tables
    seats the largest team apart (more players than a third of the field), the usual
    tables stand and the draw keeps as few team-mates together as it can.
    """
    sizes = table_sizes(players)
    largest = max(team_sizes, default=0)
    tables = len(sizes)
    if largest <= tables or largest > players // 3:
        return sizes
    # ``largest`` tables of which players - 3 * largest are fours (0 <= fours <= largest).
    fours = players - 3 * largest
    return [4] * fours + [3] * (largest - fours)


def seat_apart(teams: Sequence[Sequence[PlayerId]], sizes: Sequence[int]) -> list[list[PlayerId]]:
    """Players grouped by team onto tables of ``sizes`` with no two team-mates at one table,
    when no team has more players than there are tables (:func:`table_sizes_apart`).

    The seats are taken row by row (seat 1 of every table, then seat 2, ...); the teams,
    largest first, fill them in that order, so a team's players are consecutive seats of
    at most one row's length and land at different tables.
    """
    slots = [(row, table) for row in range(max(sizes, default=0)) for table, size in enumerate(sizes) if row < size]
    order = [player for team in sorted(teams, key=len, reverse=True) for player in team]
    tables: list[list[PlayerId]] = [[] for _ in sizes]
    for (_row, table), player in zip(slots, order, strict=True):
        tables[table].append(player)
    return tables


@dataclass(frozen=True, slots=True)
class Entrant:
    """A player as the draw sees him: an id, and his club and team if any."""

    id: PlayerId
    club: Hashable | None = None
    team: Hashable | None = None


@dataclass(slots=True)
class DrawResult:
    """Tables in number order, each a list of player ids in seat order (seat 1 first)."""

    tables: list[list[PlayerId]]
    repeat_meetings: int = 0
    club_meetings: int = 0
    team_meetings: int = 0
    swaps: int = 0
    details: dict[str, int] = field(default_factory=dict)


class _Conflicts:
    """Pair penalties: looked up per pair, cheap for the swap search."""

    def __init__(self, entrants: Sequence[Entrant], met: Iterable[tuple[PlayerId, PlayerId]]) -> None:
        self.club = {e.id: e.club for e in entrants}
        self.team = {e.id: e.team for e in entrants}
        self.met: dict[PlayerId, dict[PlayerId, int]] = defaultdict(dict)
        for a, b in met:
            if a == b:
                continue
            self.met[a][b] = self.met[a].get(b, 0) + 1
            self.met[b][a] = self.met[b].get(a, 0) + 1

    def pair(self, a: PlayerId, b: PlayerId) -> int:
        penalty = 0
        team = self.team[a]
        if team is not None and team == self.team[b]:
            penalty += TEAM_WEIGHT
        times = self.met.get(a)
        if times:
            penalty += MET_WEIGHT * times.get(b, 0)
        club = self.club[a]
        if club is not None and club == self.club[b]:
            penalty += CLUB_WEIGHT
        return penalty

    def table(self, players: Sequence[PlayerId]) -> int:
        return sum(self.pair(a, b) for a, b in combinations(players, 2))

    def against(self, player: PlayerId, others: Iterable[PlayerId]) -> int:
        return sum(self.pair(player, other) for other in others if other != player)


def conflicts(entrants: Sequence[Entrant], met: Iterable[tuple[PlayerId, PlayerId]] = ()) -> _Conflicts:
    """The pair penalties the draw weighs (team-mates, earlier meetings, club-mates), for
    changes of single tables after the draw (draw.seating): ``.table(players)``
    and ``.against(player, others)``."""
    return _Conflicts(entrants, met)


def draw(
    entrants: Sequence[Entrant],
    *,
    seed: int,
    met: Iterable[tuple[PlayerId, PlayerId]] = (),
    ranking: Sequence[PlayerId] | None = None,
    window: int = 2,
    max_rounds: int = 20,
) -> DrawResult:
    """Draw ``entrants`` onto tables.

    ``met`` lists pairs who already sat together (once per earlier meeting).
    ``ranking`` (best first, every entrant once) makes a seeded draw: the best players
    share the first tables, and swaps only go to tables at most ``window`` away.
    Without it the draw is random. Seat order at each table is drawn too (3.1.1).
    """
    ids = [e.id for e in entrants]
    if len(set(ids)) != len(ids):
        raise RuleError("players", gettext_noop("a player is registered twice for this series"), "3.1.1")
    team_of = {e.id: e.team for e in entrants if e.team is not None}
    members: dict[Hashable, list[PlayerId]] = defaultdict(list)
    for player, team in team_of.items():
        members[team].append(player)
    sizes = table_sizes_apart(len(ids), (len(players) for players in members.values()))
    rng = random.Random(seed)
    order = _order(ids, ranking, rng)
    tables = _fill(order, sizes)

    conflicts = _Conflicts(entrants, met)
    swaps = _improve(tables, conflicts, rng, window if ranking is not None else None, max_rounds)
    if ranking is not None and _team_mates_together(tables, conflicts):
        # Team-mates never share a table (DOMAIN): where the seeding's neighbourhood
        # cannot separate them, look further, at the cost of the seeding.
        swaps += _improve(tables, conflicts, rng, None, max_rounds)
    # The swaps found no seating that keeps team-mates apart, though one exists when the
    # tables outnumber the largest team: build it, then let the swaps lower the rest
    # (repeat meetings, clubs) without putting team-mates together again.
    if _team_mates_together(tables, conflicts) and max(len(players) for players in members.values()) <= len(sizes):
        groups = [list(players) for players in members.values()]
        groups += [[player] for player in order if player not in team_of]
        for group in groups:
            rng.shuffle(group)
        rng.shuffle(groups)
        tables[:] = seat_apart(groups, sizes)
        swaps += _improve(tables, conflicts, rng, None, max_rounds)
    for players in tables:
        rng.shuffle(players)

    result = DrawResult(tables=tables, swaps=swaps)
    _count_meetings(result, conflicts)
    return result


def _order(ids: list[PlayerId], ranking: Sequence[PlayerId] | None, rng: random.Random) -> list[PlayerId]:
    """The players in the order they fill the tables: the seeding's, or shuffled."""
    if ranking is not None:
        if sorted(map(repr, ranking)) != sorted(map(repr, ids)):
            raise RuleError(
                "ranking", gettext_noop("the seeding must rank every player of the series exactly once"), "3.1.1"
            )
        return list(ranking)
    order = list(ids)
    rng.shuffle(order)
    return order


def _fill(order: list[PlayerId], sizes: Sequence[int]) -> list[list[PlayerId]]:
    """The tables filled in turn from ``order``, table by table."""
    tables: list[list[PlayerId]] = []
    start = 0
    for size in sizes:
        tables.append(order[start : start + size])
        start += size
    return tables


def _team_mates_together(tables: list[list[PlayerId]], conflicts: _Conflicts) -> bool:
    return any(conflicts.table(players) >= TEAM_WEIGHT for players in tables)


def _count_meetings(result: DrawResult, conflicts: _Conflicts) -> None:
    """The pairs at the tables drawn who met before, who share a club, who share a team."""
    for players in result.tables:
        for a, b in combinations(players, 2):
            times = conflicts.met.get(a, {}).get(b, 0)
            result.repeat_meetings += 1 if times else 0
            club = conflicts.club[a]
            result.club_meetings += 1 if club is not None and club == conflicts.club[b] else 0
            team = conflicts.team[a]
            result.team_meetings += 1 if team is not None and team == conflicts.team[b] else 0


def _improve(
    tables: list[list[PlayerId]],
    conflicts: _Conflicts,
    rng: random.Random,
    window: int | None,
    max_rounds: int,
) -> int:
    """Swap players between tables while that lowers the total penalty.

    Only players with a conflict move, so a draw without conflicts costs one pass.
    Each candidate swap is judged on the two tables it touches.
    """
    swaps = 0
    count = len(tables)
    for _ in range(max_rounds):
        improved = False
        troubled = [t for t in range(count) if conflicts.table(tables[t]) > 0]
        rng.shuffle(troubled)
        for t in troubled:
            for i in range(len(tables[t])):
                here = tables[t]
                player = here[i]
                mates = [p for p in here if p != player]
                cost_here = conflicts.against(player, mates)
                if cost_here == 0:
                    continue
                candidates = (
                    list(range(max(0, t - window), min(count, t + window + 1)))
                    if window is not None
                    else rng.sample(range(count), min(count, 64))
                )
                best: tuple[int, int, int] | None = None  # (gain, table, index)
                for u in candidates:
                    if u == t:
                        continue
                    there = tables[u]
                    for j, other in enumerate(there):
                        others = [p for p in there if p != other]
                        before = cost_here + conflicts.against(other, others)
                        after = conflicts.against(other, mates) + conflicts.against(player, others)
                        gain = before - after
                        if gain > 0 and (best is None or gain > best[0]):
                            best = (gain, u, j)
                if best is not None:
                    _, u, j = best
                    tables[t][i], tables[u][j] = tables[u][j], tables[t][i]
                    swaps += 1
                    improved = True
        if not improved:
            break
    return swaps
