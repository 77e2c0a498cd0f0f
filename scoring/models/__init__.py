"""Scoring's models: the deals of both lists and the seat totals (deals.py), the results
mark the public pages are cached by (marks.py). The sheet's sign-off is signoff.models."""

from .deals import (
    IRREGULARITY_CHOICES,
    PASSED_OR_DECLARED,
    ConflictingEntry,
    ControlEntry,
    Game,
    GameQuerySet,
    ScoresheetLine,
    SeatTotal,
)
from .marks import ResultsMark

__all__ = [
    "IRREGULARITY_CHOICES",
    "PASSED_OR_DECLARED",
    "ConflictingEntry",
    "ControlEntry",
    "Game",
    "GameQuerySet",
    "ResultsMark",
    "ScoresheetLine",
    "SeatTotal",
]
