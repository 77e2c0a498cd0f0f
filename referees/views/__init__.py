"""The referees' pages, and the table link's dispute, by page family.

Thin: forms validate, :mod:`signoff.confirm` confirms sheets, :mod:`referees.disputes`
raises and closes disputes, :mod:`referees.corrections` changes games (one transaction
each, the engine values them), :mod:`referees.reports` lists the corrections. Every object
is looked up inside the tournament of the URL, so a referee of another tournament finds
nothing here (404), and a table link reaches its own table only.

- :mod:`.board`: the user's tournaments, the board, the corrections CSV;
- :mod:`.assign`: the director names and removes referees;
- :mod:`.disputes`: raising (also from the table link), deciding, withdrawing;
- :mod:`.games`: a table's sheet for the referee, "signed on paper", correcting a game;
- :mod:`.sheets`: decisions about a whole sheet: accepting it over a differing second
  list, lifting a PIN lock, re-opening it, adding a missed deal.

The URL modules import the views from here; no view module imports this package.
"""

from .assign import assign, unassign
from .board import board, corrections_csv, mine
from .disputes import dispute_decide, dispute_detail, dispute_new, dispute_withdraw, table_dispute
from .games import game_correct, game_preview, game_void, table_detail, table_paper
from .sheets import table_accept, table_add_deal, table_reopen, table_unlock

__all__ = [
    "assign",
    "board",
    "corrections_csv",
    "dispute_decide",
    "dispute_detail",
    "dispute_new",
    "dispute_withdraw",
    "game_correct",
    "game_preview",
    "game_void",
    "mine",
    "table_accept",
    "table_add_deal",
    "table_detail",
    "table_dispute",
    "table_paper",
    "table_reopen",
    "table_unlock",
    "unassign",
]
