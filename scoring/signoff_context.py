"""What the table link's page shows of the sign-off (used by scoring.views)."""

from __future__ import annotations

from tournaments.models import Table

from . import signoff
from .forms import PinForm


def table_link_context(table: Table, players: dict[int, str], *, entered: int) -> dict:
    """The sign-off state, who has confirmed, and the PIN form while the sheet awaits
    confirmation: for the players still to confirm whose PIN entry is not locked, and
    none while the second list differs (the lists first, or a referee's decision)."""
    state = signoff.state(table, entered=entered)
    seats = [(seat, name, seat in state.confirmed_seats) for seat, name in sorted(players.items())]
    # The form offers only the players still to confirm (the list above shows who has).
    waiting = {
        seat: name
        for seat, name in players.items()
        if seat not in state.confirmed_seats and seat not in state.locked_seats
    }
    locked = [(players.get(seat, "?"), until) for seat, until in sorted(state.locked_seats.items())]
    return {
        "signoff": state,
        "signoff_seats": seats,
        "signoff_locked": locked,
        "signoff_blocked": signoff.lists_differ_text(state.lists_differ) if state.blocked else "",
        "pin_form": PinForm(players=waiting) if state.awaiting and waiting and not state.blocked else None,
    }
