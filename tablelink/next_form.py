"""The next deal's form in the answer to a deal appended, from a skeleton rendered once.

The form for the next deal is the largest part of that answer, and drawing it through
the form and template machinery (a GameForm built, every widget and label translated
and rendered) cost more than saving the deal. Yet it depends on little: which list,
the table's size, the seats in play and the dealer, the language, and per request the
deal number, the table's link, the players' names, a new entry id, the CSRF token and
the sheet's version (scoring.sheet_versions).
:func:`render` renders templates/tablelink/_game_form.html once per process for each
shape (list, size, seats in play, dealer, language) with marks where the per-request
values go, and puts each request's values (escaped) in their places in one pass, so
a name is never searched for marks. tests/tablelink/test_next_form.py holds the output
equal to the template rendered with a real form.
"""

from __future__ import annotations

import re
import threading
import uuid
from urllib.parse import quote

from django.http import HttpRequest
from django.middleware.csrf import get_token
from django.template.loader import render_to_string
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

from scoring.models import Game
from skat.sheet import active_seats, dealer_seat

from .links import Link

#: A mark in the skeleton: letters and digits only, so URLs, attributes and escaping keep it as it is.
_MARK = re.compile(r"Qz7nf([A-Z0-9]+)fn7zQ")


def _mark(name: str) -> str:
    return f"Qz7nf{name}fn7zQ"


_skeletons: dict[tuple, str] = {}
_lock = threading.Lock()


def _skeleton(link: Link, seats: tuple[int, ...], dealer: int | None, oob: bool) -> str:
    """The form with marks for the deal number, the link, the names, the entry id, the CSRF
    token and the sheet's version."""
    table = link.table
    key = (link.control, table.size, seats, dealer, get_language(), oob)
    found = _skeletons.get(key)
    if found is not None:
        return found
    form = link.form_class(
        table=table,
        players={seat: _mark(f"P{seat}") for seat in seats},
        initial={"number": _mark("NUMBER"), "client_id": _mark("CLIENT"), "tops_kind": Game.TopsKind.WITH},
    )
    context = {
        "form": form,
        "dealer": _mark(f"P{dealer}") if dealer is not None else None,
        "table": {"size": table.size},
        "link": _mark("LINK"),
        "oob": oob,
        "csrf_token": _mark("CSRF"),
        "sheet_version": _mark("VERSION"),
    }
    html = render_to_string("tablelink/_game_form.html", context)
    with _lock:
        return _skeletons.setdefault(key, html)


def render(request: HttpRequest, link: Link, number: int, version: str, *, oob: bool = True) -> SafeString:
    """The form for deal ``number`` of the link's list, as _game_form.html renders it
    for a new form (a new entry id, nothing entered, "with" tops preselected), on a page
    showing the list at ``version`` (scoring.sheet_versions)."""
    size = link.table.size
    seats = tuple(seat for seat in sorted(link.players) if seat in active_seats(number, size))
    dealer = dealer_seat(number, size)
    dealer = dealer if dealer in link.players else None  # a seat without a player names no dealer
    values = {
        "NUMBER": str(number),
        # As {% url %} writes it: a token is URL-safe (letters, digits, "-" and "_").
        "LINK": conditional_escape(quote(link.token, safe="")),
        "CLIENT": str(uuid.uuid4()),
        "CSRF": conditional_escape(get_token(request)),
        "VERSION": conditional_escape(version),
    }
    for seat, name in link.players.items():
        values[f"P{seat}"] = conditional_escape(name)
    skeleton = _skeleton(link, seats, dealer, oob)
    return mark_safe(_MARK.sub(lambda match: values.get(match.group(1), ""), skeleton))  # each value escaped
