"""What the table link's page shows of the sign-off (used by scoring.views)."""

from __future__ import annotations

from tournaments.models import Table

from . import signoff
from .forms import PinForm


def table_link_context(table: Table, players: dict[int, str], *, entered: int) -> dict:
    """The sign-off state, who has confirmed, and the PIN form while the sheet awaits confirmation."""
    state = signoff.state(table, entered=entered)
    seats = [(seat, name, seat in state.confirmed_seats) for seat, name in sorted(players.items())]
    return {
        "signoff": state,
        "signoff_seats": seats,
        "pin_form": PinForm(players=players) if state.awaiting and state.locked_until is None else None,
    }
