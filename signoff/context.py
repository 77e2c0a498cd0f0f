"""What the table link's page shows of the sign-off (used by tablelink.views)."""

from __future__ import annotations

from scoring.forms import PinForm
from tournaments.models import Table

from . import confirm as signoff


def table_link_context(table: Table, players: dict[int, str], *, entered: int, known: object = signoff.UNREAD) -> dict:
    """The sign-off state, who has confirmed, and the PIN form while the sheet awaits
    confirmation: for the players still to confirm whose PIN entry is not locked, and
    none while the second list differs (the lists first, or a referee's decision). Each
    locked seat is named with whom to call; when every open seat is locked, the page says
    so (a link holder who guessed at every seat: the director or a referee helps).
    ``known``: the table's SignOff or None, when the caller read it already."""
    state = signoff.state(table, entered=entered, signoff=known)
    seats = [(seat, name, seat in state.confirmed_seats) for seat, name in sorted(players.items())]
    # The form offers only the players still to confirm (the list above shows who has).
    waiting = {
        seat: name
        for seat, name in players.items()
        if seat not in state.confirmed_seats and seat not in state.locked_seats
    }
    # Each locked seat by number and name, with whom to call (signoff.confirm.locked_text).
    locked = [
        signoff.locked_text(seat, players.get(seat, "?"), until)
        for seat, until in sorted(state.locked_seats.items())
        if seat not in state.confirmed_seats
    ]
    open_seats = set(players) - state.confirmed_seats
    every_seat_locked = state.awaiting and bool(open_seats) and open_seats <= set(state.locked_seats)
    return {
        "signoff": state,
        "signoff_seats": seats,
        "signoff_locked": locked,
        "signoff_every_seat_locked": signoff.every_seat_locked_text() if every_seat_locked else "",
        "signoff_blocked": _blocked_text(state),
        "pin_form": PinForm(players=waiting) if state.awaiting and waiting and not state.blocked else None,
    }


def _blocked_text(state: signoff.SignOffState) -> str:
    """Why the PIN form is not offered: the lists differ, or the second list is partial."""
    if not state.blocked:
        return ""
    texts = []
    if state.lists_differ:
        texts.append(signoff.lists_differ_text(state.lists_differ))
    if state.list_missing:
        texts.append(signoff.list_missing_text(state.list_missing, state.entered))
    return " ".join(texts)
