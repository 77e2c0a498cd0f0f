"""A national league season for ``manage.py bench --league-teams N``.

The DSkV's league (DOMAIN, "Teams and leagues"): about 1,000 teams in groups of 16, five
league days a season; on each league day every team plays one match day with three other
teams of its group at a host, so a group of 16 meets every other team exactly once in the
five days (the five parallel classes of the affine plane of order 4). A group of fewer
teams (the last one when N is not a multiple of 16) is split into fours by a seeded
shuffle per league day.

Every match day is played as :mod:`perf.league` plays one (line-ups, every series drawn,
every deal entered with random valid games, bulk-inserted), one match day per
transaction, so memory stays that of one match day (576 deals at 3 series of 12 rounds)
whatever the league's size, and the progress is logged with an estimate of the time left.
"""

from __future__ import annotations

import datetime
import random
import time
from dataclasses import dataclass, field
from pathlib import Path

from django.db import transaction

from leagues import lineups
from leagues.models import Group, Host, League, LeagueTeam, MatchDay, RosterEntry
from leagues.publication import digest
from tournaments.models import Club, Player
from transfer.exports import league_xlsx

from .league import ROSTER, play_match_day
from .timing import Log

#: Teams of a full group: 16 meet each other exactly once over five league days of fours.
GROUP = 16
#: Teams of a match day.
FOUR = 4
#: Hosts: one per match day of a league day (each hosts one match day a league day).
LEAGUE_DAYS = 5

#: GF(4): addition is XOR; multiplication of 0..3 (1 = 1, 2 = a, 3 = a + 1, a^2 = a + 1).
_MUL = [[0, 0, 0, 0], [0, 1, 2, 3], [0, 2, 3, 1], [0, 3, 1, 2]]


def affine_days() -> list[list[list[int]]]:
    """The five parallel classes of AG(2, 4): 16 points (4x + y), each class four lines of four.

    Two points share exactly one line, so five league days of these fours bring every
    team of a group of 16 together with every other team exactly once.
    """
    days = [[[4 * x + y for y in range(4)] for x in range(4)]]  # the vertical lines x = c
    for slope in range(4):
        days.append([[4 * x + (_MUL[slope][x] ^ b) for x in range(4)] for b in range(4)])
    return days


def quartets(size: int, day: int, rng: random.Random) -> list[list[int]]:
    """The fours of a group of ``size`` teams (a multiple of four) on league day ``day`` (1-based)."""
    if size == GROUP and day <= LEAGUE_DAYS:
        return affine_days()[day - 1]
    order = list(range(size))
    rng.shuffle(order)
    return [sorted(order[i : i + FOUR]) for i in range(0, size, FOUR)]


def group_sizes(teams: int) -> list[int]:
    """Groups of 16, the rest (4, 8 or 12 teams) one smaller group."""
    sizes = [GROUP] * (teams // GROUP)
    if teams % GROUP:
        sizes.append(teams % GROUP)
    return sizes


def made_up_host_token(number: int, seed: int) -> str:
    """The bench's token of hall ``number`` (0-based): the publication load test sends it."""
    return f"bench-hall-{seed}-{number:05d}"


@dataclass
class National:
    league: League
    groups: list[Group]
    #: The first group's teams and match days (the pages open these).
    teams: list[LeagueTeam]
    match_days: list[MatchDay]
    hosts: list[Host] = field(default_factory=list)
    deals: int = 0
    #: Match days played in their halls, waiting to be published (``halls``).
    held: list[HallFile] = field(default_factory=list)


def _teams(league: League, sizes: list[int]) -> tuple[list[Group], dict[int, list[LeagueTeam]]]:
    """Groups, clubs, teams and rosters, all bulk-inserted (six players a team, positions 1-6)."""
    groups = Group.objects.bulk_create(
        [Group(league=league, name=f"Group {g + 1:03d}") for g in range(len(sizes))], batch_size=500
    )
    total = sum(sizes)
    clubs = Club.objects.bulk_create([Club(name=f"National club {t + 1:04d}") for t in range(total)], batch_size=2000)
    players = Player.objects.bulk_create(
        [Player(name=f"National {t + 1:04d}-{n}", club=club) for t, club in enumerate(clubs) for n in range(1, 7)],
        batch_size=2000,
    )
    made: list[LeagueTeam] = []
    t = 0
    for group, size in zip(groups, sizes, strict=True):
        for _ in range(size):
            made.append(LeagueTeam(group=group, name=f"Team {t + 1:04d}", club=clubs[t], captain=players[ROSTER * t]))
            t += 1
    made = LeagueTeam.objects.bulk_create(made, batch_size=2000)
    RosterEntry.objects.bulk_create(
        [
            RosterEntry(team=team, player=players[ROSTER * t + n], position=n + 1)
            for t, team in enumerate(made)
            for n in range(ROSTER)
        ],
        batch_size=2000,
    )
    by_group: dict[int, list[LeagueTeam]] = {}
    for team in made:
        by_group.setdefault(team.group_id, []).append(team)
    return groups, by_group


@dataclass(frozen=True)
class HallFile:
    """A match day played in its hall, not yet published: the file its host will send."""

    host: int  # the host's number (0-based, :func:`made_up_host_token`)
    key: str  # the match day's key (the package's), sent as ``?key=``
    path: Path
    deals: int


def hold_for_hall(match_day: MatchDay, deals: int, number: int, directory: Path) -> HallFile:
    """The played match day written as its hall's tournament file, and the server's match day
    set back to unplayed (an empty tournament of its teams), as before the hall publishes."""
    path = directory / f"hall-{number:05d}.xlsx"
    with path.open("wb") as out:
        league_xlsx(match_day.tournament, out)
    played = match_day.tournament
    match_day.tournament = lineups.empty_tournament(
        match_day.group, number=match_day.number, date=match_day.date, host=match_day.host, teams=match_day.teams.all()
    )
    match_day.save(update_fields=["tournament"])
    played.delete()
    return HallFile(number, match_day.key, path, deals)


def build_national(
    manager,
    *,
    teams: int = 1000,
    league_days: int = LEAGUE_DAYS,
    seed: int = 1,
    log: Log = print,
    halls: int = 0,
    directory: Path | None = None,
) -> National:
    """A published national league of ``teams`` teams (a multiple of four) and every deal of its season.

    ``halls``: the last league day's first match days played in their halls instead, written
    to files in ``directory`` for their hosts to publish (:mod:`perf.publish`).
    """
    if teams < FOUR or teams % FOUR:
        raise ValueError(f"teams: a multiple of {FOUR}, at least {FOUR}, not {teams}")
    rng = random.Random(seed)
    league = League.objects.create(name="National league", season="2026", lot_seed=seed, published=True)
    league.managers.add(manager)
    sizes = group_sizes(teams)
    groups, by_group = _teams(league, sizes)
    per_day = teams // FOUR
    hosts = Host.objects.bulk_create(
        [
            Host(league=league, name=f"Hall {h + 1:04d}", token_digest=digest(made_up_host_token(h, seed)))
            for h in range(per_day)
        ],
        batch_size=2000,
    )
    log(f"  {teams} teams in {len(groups)} groups, {per_day} match days a league day, {league_days} league days")
    total = per_day * league_days
    started = time.perf_counter()
    done = deals = 0
    first: list[MatchDay] = []
    held: list[HallFile] = []
    for day in range(1, league_days + 1):
        date = datetime.date(2026, 9, 5) + datetime.timedelta(days=28 * (day - 1))
        h = 0
        for group in groups:
            mine = by_group[group.pk]
            for four in quartets(len(mine), day, rng):
                playing = [mine[i] for i in four]
                with transaction.atomic():
                    match_day = lineups.create_match_day(group, number=day, date=date, teams=playing, host=hosts[h])
                    played = play_match_day(match_day, playing, rng)
                    if day == league_days and h < halls:
                        held.append(hold_for_hall(match_day, played, h, directory))
                    else:
                        deals += played
                h += 1
                done += 1
                if group == groups[0]:
                    first.append(match_day)
                if done % 50 == 0 or done == total:
                    spent = time.perf_counter() - started
                    log(
                        f"  {done}/{total} match days, {deals} deals, {spent:.0f} s"
                        f" (about {spent / done * (total - done):.0f} s left)"
                    )
    return National(league, groups, by_group[groups[0].pk], first, hosts, deals, held)
