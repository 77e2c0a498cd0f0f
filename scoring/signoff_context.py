"""What the table link's page shows of the sign-off (used by scoring.views)."""

from __future__ import annotations

from tournaments.models import Table

from . import signoff
from .forms import PinForm


def table_link_context(table: Table, players: dict[int, str], *, entered: int) -> dict:
    """The sign-off state, who has confirmed, and the PIN form while the sheet awaits confirmation."""
    state = signoff.state(table, entered=entered)
    seats = [(seat, name, seat in state.confirmed_seats) for seat, name in sorted(players.items())]
    # The form offers only the players still to confirm (the list above shows who has).
    waiting = {seat: name for seat, name in players.items() if seat not in state.confirmed_seats}
    return {
        "signoff": state,
        "signoff_seats": seats,
        "pin_form": PinForm(players=waiting) if state.awaiting and state.locked_until is None else None,
    }
