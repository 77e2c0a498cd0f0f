"""Scoring's models: the deals of both lists and the seat totals (deals.py), the sheet's
sign-off (signoff.py), the results mark the public pages are cached by (marks.py)."""

from .deals import (
    IRREGULARITY_CHOICES,
    PASSED_OR_DECLARED,
    ConflictingEntry,
    ControlEntry,
    Deal,
    Game,
    GameQuerySet,
    SeatTotal,
)
from .marks import ResultsMark
from .signoff import ListsAccepted, PinFailure, SeatConfirmation, SignOff

__all__ = [
    "IRREGULARITY_CHOICES",
    "PASSED_OR_DECLARED",
    "ConflictingEntry",
    "ControlEntry",
    "Deal",
    "Game",
    "GameQuerySet",
    "ListsAccepted",
    "PinFailure",
    "ResultsMark",
    "SeatConfirmation",
    "SeatTotal",
    "SignOff",
]
