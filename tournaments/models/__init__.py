"""Players, tournaments, series, tables and seats.

The structure follows the tournament practice of ../shared/DOMAIN.md: a tournament has
one or more series; for each series the registered players are drawn onto tables of
four and three; a series is a whole number of rounds, a round being one deal by each
player of the table (3.2.1). Database constraints, not only forms, keep the seating
sound: seat numbers are unique per table and a player sits at most once per series.
"""

from .defaults import new_seed, new_token
from .entries import Category, Registration, RegistrationQuerySet, Team
from .money import LostGameFee, PassedOutFee, Prize, TableMoney
from .people import Club, Player, PlayerChange
from .play import Seat, Series, Table, TableQuerySet
from .tournament import Tournament, TournamentQuerySet

__all__ = [
    "Category",
    "Club",
    "LostGameFee",
    "PassedOutFee",
    "Player",
    "PlayerChange",
    "Prize",
    "Registration",
    "RegistrationQuerySet",
    "Seat",
    "Series",
    "Table",
    "TableMoney",
    "TableQuerySet",
    "Team",
    "Tournament",
    "TournamentQuerySet",
    "new_seed",
    "new_token",
]
