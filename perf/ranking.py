"""A ranking over many tournaments beside the bench tournament, for the ranking pages' figures.

A federation's size: 200 tournaments and 3,000 players in 100 clubs. The tournaments'
results are written as the ranking reads them (:class:`rankings.models.RankingResult`:
each player's place and three series), not played deal by deal: the pages read the
computed lines, whose cost does not depend on how the results came about. Each
tournament has 300 of the players (so a player has about 20 results), a tenth of them in
the category "Damen"; a few name twins in other clubs give the director doubtful
matches. Then the ranking is computed once, as every change computes it (timed, logged).
"""

from __future__ import annotations

import datetime
import random
import time

from rankings.compute import compute_lines
from rankings.models import Ranking, RankingResult, RankingTournament
from tournaments.models import Club, Player, Tournament

from .timing import Log


def _names(text: str) -> list[str]:
    return text.split()


#: Names as a regional group's list has them: 60 first names x 60 surnames, in 100 clubs.
FIRST = _names(
    """
    Anna Bernd Carla Dieter Elke Frank Gisela Hans Inge Jens Karin Lutz Monika Norbert Olga Peter Renate
    Stefan Tanja Uwe Vera Werner Yvonne Zeno Andreas Birgit Christian Doris Erich Frieda Gerd Helga Ingo
    Jutta Klaus Lena Manfred Nina Otto Petra Rolf Sabine Thomas Ulla Volker Wilma Xaver Yusuf Zora Axel
    Brigitte Carsten Dagmar Egon Fritz Gabi Heinz Irma Jürgen Kurt
    """
)
LAST = _names(
    """
    Müller Schmidt Schneider Fischer Weber Meyer Wagner Becker Schulz Hoffmann Schäfer Koch Bauer
    Richter Klein Wolf Schröder Neumann Schwarz Zimmermann Braun Krüger Hofmann Hartmann Lange Schmitt
    Werner Schmitz Krause Meier Lehmann Schmid Schulze Maier Köhler Herrmann König Walter Mayer Huber
    Kaiser Fuchs Peters Lang Scholz Möller Weiß Jung Hahn Schubert Vogel Friedrich Keller Günther Frank
    Berger Winkler Roth Beck Lorenz
    """
)


def ranking_size(players: int) -> dict[str, int]:
    """A federation's size (200 tournaments, 3,000 players, 300 a tournament) at the bench's own
    size of 1,000 players and more; a small ranking beside a small bench (its tests)."""
    if players >= 1000:
        return {"tournaments": 200, "players": max(players, 3000), "per_tournament": 300}
    players = max(players, 40)
    return {"tournaments": 5, "players": players, "per_tournament": players // 2}


def build_ranking(
    director,
    *,
    tournaments: int = 200,
    players: int = 3000,
    per_tournament: int = 300,
    seed: int = 1,
    log: Log = print,
) -> Ranking:
    rng = random.Random(seed)
    clubs = Club.objects.bulk_create([Club(name=f"Ranking club {i:03d}") for i in range(100)])
    names = sorted({f"{first} {last}" for first in FIRST for last in LAST})
    rng.shuffle(names)
    people = Player.objects.bulk_create(
        [Player(name=names[i % len(names)], club=clubs[i % len(clubs)]).fill_keys() for i in range(players)],
        batch_size=2000,
    )
    # Name twins in another club: doubtful matches for the director.
    twins = [Player(name=p.name, club=clubs[(i + 1) % len(clubs)]).fill_keys() for i, p in enumerate(people[:20])]
    twins = twins[: max(1, players // 100)]
    people += Player.objects.bulk_create(twins)
    events = Tournament.objects.bulk_create(
        [
            Tournament(name=f"Ranking tournament {n:03d}", date=datetime.date(2027, 1, 1) + datetime.timedelta(days=n))
            for n in range(tournaments)
        ]
    )
    ranking = Ranking.objects.create(
        name="Bench cup", season="2027", best=12, minimum=5, tie_break_1="best", public=True
    )
    ranking.directors.add(director)
    entries = RankingTournament.objects.bulk_create([RankingTournament(ranking=ranking, tournament=t) for t in events])
    rows = []
    for entry in entries:
        field = rng.sample(people, per_tournament)
        ratings = sorted(
            ((rng.randint(-300, 1500), rng.randint(-300, 1500), rng.randint(-300, 1500)), p) for p in field
        )
        for place, (series, player) in enumerate(reversed(ratings), start=1):
            rows.append(
                RankingResult(
                    entry=entry,
                    player=player,
                    place=place,
                    category="Damen" if player.pk % 10 == 0 else "",
                    series=[[n, r, r - 100, 1] for n, r in enumerate(series, start=1)],
                )
            )
    RankingResult.objects.bulk_create(rows, batch_size=5000)
    started = time.perf_counter()
    compute_lines(ranking)
    log(
        f"  ranking: {tournaments} tournaments, {len(people)} players, {len(rows)} results,"
        f" computed in {time.perf_counter() - started:.1f} s"
    )
    return ranking
