"""Short club evenings whose ratings are easy to compute by hand.

An evening is one series of one round: tables of four, four deals each (3.2.7: the dealer
sits out). A player's win is a grand with 1 top won with 61 (24 x 2 = 48 game points,
+50 for the game won: rating 98); every other deal is passed out (nobody scores). So a
player's rating on an evening is 98 x his wins, his game points 48 x his wins.
"""

from __future__ import annotations

import datetime

from tests import factories
from tournaments.models import Category, Player, Registration, Seat, Series, Table, Tournament

WIN = 98
WIN_POINTS = 48


def evening(
    name: str,
    day: datetime.date,
    wins: dict[Player, int],
    *,
    directors=(),
    categories: dict[Player, str] | None = None,
) -> Tournament:
    """A played evening: ``wins`` lists the players (a multiple of four, seated in that order)
    with the games each wins (at most three: he deals the fourth)."""
    players = list(wins)
    assert len(players) % 4 == 0
    t = factories.tournament(name=name, date=day, series_count=1, rounds_per_series=1, directors=list(directors))
    categories = categories or {}
    for p in players:
        category = None
        if p in categories:
            category = Category.objects.get_or_create(tournament=t, name=categories[p])[0]
        Registration.objects.create(tournament=t, player=p, category=category)
    series = Series.objects.create(tournament=t, number=1)
    for index in range(0, len(players), 4):
        table = Table.objects.create(series=series, number=index // 4 + 1, size=4)
        seated = players[index : index + 4]
        for number, p in enumerate(seated, start=1):
            Seat.objects.create(table=table, series=series, number=number, player=p)
        left = {number: wins[p] for number, p in enumerate(seated, start=1)}
        for deal in range(1, 5):
            dealer = (deal - 1) % 4 + 1
            declarer = next((s for s in sorted(left, key=lambda s: -left[s]) if s != dealer and left[s]), None)
            if declarer is None:
                factories.game(table, deal, passed_out=True)
            else:
                factories.game(table, deal, declarer_seat=declarer, contract="grand", tops=1, declarer_points=61)
                left[declarer] -= 1
        assert not any(left.values()), f"wins {left} cannot be played at one table of four"
    Series.objects.filter(pk=series.pk).update(status=Series.Status.FINISHED)
    return t
