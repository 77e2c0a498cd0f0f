"""The fixed seating plan (Setzplan) of a league match day of up to four teams.

Practice (DOMAIN, "More practice"): at a match day of four teams of four, each series
seats one player of each team at each table of four, and with four teams of four a plan
with no repeat meeting exists for up to four series. This is the affine plane of order 4:
number each team's players 0-3 (its line-up order), give team k the multiplier k of the
field GF(4), and seat at table t in series s the player t + k * s of each team k. Two
players of different teams j, k sit together when their numbers differ by (j - k) * s,
which holds for exactly one s: over four series every pair of players of different teams
meets exactly once, and a team's players never share a table.

Shorter teams leave seats empty and an absent team leaves its seat at every table empty;
the plan chooses which numbers a short team leaves empty, and which of the four series
pattern the match day plays, so that every table keeps three or four players. A fifth or
later series repeats the pattern (repeat meetings cannot be avoided then). Where no
choice keeps every table at three or more (fewer than three teams, eleven players of
4 + 4 + 3), there is no plan and :func:`seating_plan` answers None: the ordinary draw
seats the match day.

Pure and standard library only: the office's draw uses it for match days, the match
report prints it.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations, product

from .rules import RuleError, gettext_noop

#: A seat of the plan: (team index, player number within the team, 0 first).
PlanSeat = tuple[int, int]
#: Per series (first first), per table, the seats in seat order.
Plan = list[list[list[PlanSeat]]]

TEAMS = 4
PLAYERS = 4


def _times(a: int, b: int) -> int:
    """Multiplication in GF(4) = GF(2)[x] / (x^2 + x + 1), elements 0-3 as bit patterns."""
    product_ = 0
    for bit in range(2):
        if b >> bit & 1:
            product_ ^= a << bit
    return product_ ^ 0b111 if product_ & 0b100 else product_


def pattern(series: int) -> list[list[PlanSeat]]:
    """Series pattern ``series`` (0-3) of four full teams: table t seats player t ^ k*s of team k."""
    return [[(k, t ^ _times(k, series)) for k in range(TEAMS)] for t in range(PLAYERS)]


def seating_plan(team_sizes: Sequence[int], series: int) -> Plan | None:
    """The plan for teams of ``team_sizes`` players (0 for a team that does not turn up)
    over ``series`` series, or None when no table of the plan can keep three players.

    Answers per series the tables (each of three or four seats, one team at most once)
    with (team, player number) in seat order; empty tables are left out and the tables
    are numbered in order. The same input always gives the same plan.
    """
    sizes = list(team_sizes)
    if not 1 <= len(sizes) <= TEAMS or any(not 0 <= size <= PLAYERS for size in sizes):
        raise RuleError(
            "teams",
            gettext_noop("a seating plan is for up to {teams} teams of up to {players} players"),
            "league",
            teams=TEAMS,
            players=PLAYERS,
        )
    if series < 1:
        raise RuleError("series", gettext_noop("a match day has at least one series"), "league")
    best: tuple[int, Plan] | None = None
    # Which numbers each team leaves empty, and which patterns the series play (their
    # order does not change which tables fall short, so the sets suffice).
    empties = [list(combinations(range(PLAYERS), PLAYERS - size)) for size in sizes]
    orders = list(combinations(range(PLAYERS), min(series, PLAYERS)))
    # Fewer tables of three than this no plan has: the fewest tables that hold everybody.
    least = series * (-sum(sizes) % PLAYERS)
    for empty in product(*empties):
        for order in orders:
            plan = _plan(sizes, empty, order, series)
            if plan is None:
                continue
            # The fewest tables of three (the most fours), then the first found.
            threes = sum(len(table) == 3 for tables in plan for table in tables)
            if best is None or threes < best[0]:
                best = (threes, plan)
            if threes <= least:
                return plan
    return None if best is None else best[1]


def _plan(sizes: list[int], empty: tuple[tuple[int, ...], ...], order: tuple[int, ...], series: int) -> Plan | None:
    """The plan with these empty numbers and pattern order, or None if a table falls below three."""
    # A team's present players keep their line-up order on the numbers not left empty.
    number_of = []
    for team, size in enumerate(sizes):
        kept = [n for n in range(PLAYERS) if n not in empty[team]]
        number_of.append({slot: player for player, slot in enumerate(kept[:size])})
    plan: Plan = []
    for index in range(series):
        tables = []
        for table in pattern(order[index % len(order)]):
            seats = [
                (team, number_of[team][slot]) for team, slot in table if team < len(sizes) and slot in number_of[team]
            ]
            if not seats:
                continue
            if len(seats) < 3:
                return None
            tables.append(seats)
        if not tables:
            return None  # nobody to seat
        plan.append(tables)
    return plan


def meetings(plan: Plan) -> dict[tuple[PlanSeat, PlanSeat], int]:
    """How often each pair of seats' players sit together over the plan (the plan's check)."""
    count: dict[tuple[PlanSeat, PlanSeat], int] = {}
    for tables in plan:
        for table in tables:
            for pair in combinations(sorted(table), 2):
                count[pair] = count.get(pair, 0) + 1
    return count
