"""Hooks: how a lower layer shows something of a higher one without importing it.

The office's apps import only downwards (docs, "Layout"): tournaments, then the games,
sign-off, standings, the draw and the rest, then referees and leagues. When a lower app
needs an answer only a higher one has (whether deals are entered; the front page lists
the tournaments a user referees), it declares a :class:`Hook` here with a default, and
the higher app fills it in its ``AppConfig.ready``. Nothing here knows who fills it; the
docs' "Hooks" page maps every hook (:data:`DECLARED`) and its filler.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

from django.core.exceptions import ImproperlyConfigured

#: Every hook declared so far, in the order their modules were imported: the hook map
#: (docs, "Hooks") is checked against it (tests/test_hooks_map.py).
DECLARED: list[Hook] = []


class Hook:
    """One slot a higher app fills; called before that, it answers with its default.

    Where no answer is right without the higher app (the standings for a seeded draw),
    the default is :func:`unfilled`, which refuses loudly instead of guessing.
    """

    def __init__(self, name: str, default: Callable[..., Any]) -> None:
        self.name = name
        self._default = default
        self._filled: Callable[..., Any] | None = None
        #: The module that declares it (the one calling this), for the hook map.
        self.declared_in: str = sys._getframe(1).f_globals.get("__name__", "")
        DECLARED.append(self)

    def fill(self, function: Callable[..., Any]) -> Callable[..., Any]:
        """Fill the slot (usable as a decorator); a second app filling it is a mistake."""
        if self._filled is not None and self._filled is not function:
            raise RuntimeError(f"the hook {self.name} is filled already")
        self._filled = function
        return function

    @property
    def filled(self) -> bool:
        return self._filled is not None

    @property
    def filled_by(self) -> str | None:
        """The dotted name of the function that fills it (None: unfilled), for the hook map."""
        if self._filled is None:
            return None
        return f"{self._filled.__module__}.{self._filled.__qualname__}"

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if self._filled is None and self._default is unfilled:
            raise ImproperlyConfigured(f"the hook {self.name} is not filled: is the app that fills it installed?")
        return (self._filled or self._default)(*args, **kwargs)


def unfilled(*args: Any, **kwargs: Any) -> Any:
    """The default of a hook that has no safe answer of its own."""
    raise AssertionError("never called: Hook.__call__ refuses first")  # pragma: no cover


#: The front page's extra panels for the request's user, as rendered HTML (e.g. the
#: tournaments he referees); filled by referees. Without it the front page has none.
front_page_panels = Hook("tournaments.front_page_panels", lambda request: [])

#: Whether a deal of the series is entered (seats and tables are then fixed, 3.1.2);
#: filled by scoring, which keeps the games.
play_started = Hook("tournaments.play_started", unfilled)

#: Whether a user who does not direct the tournament may still read its results (the
#: standings): its referees may (DOMAIN: they check results); filled by referees.
reads_results = Hook("tournaments.reads_results", lambda tournament, user: False)

#: Whether a user who does not direct the tournament may still type a table's paper list
#: at the office's desk (the grid): its referees may (DOMAIN: they check and correct
#: results); filled by referees.
types_paper_lists = Hook("tournaments.types_paper_lists", lambda tournament, user: False)

#: Whether a deal of any of the tournament's series is entered: then its rounds per series
#: are fixed (the sheets count them); filled by scoring, which keeps the games.
deals_entered = Hook("tournaments.deals_entered", unfilled)

#: Why a user stays a director of the tournament whatever its directors page says (he
#: manages the league whose match day it is: the league's managers page names and takes
#: out match days' directors), as a sentence; None: the page may take him out. Filled by
#: leagues.
kept_director = Hook("tournaments.kept_director", lambda tournament, user: None)

#: The names of the leagues ``player`` plays in (on a roster) that ``user`` does not manage:
#: his name, club and membership number show there too, so a director changes them only
#: if he runs those as well (tournaments.services.elsewhere). Filled by leagues.
player_elsewhere = Hook("tournaments.player_elsewhere", lambda player, user: [])

#: Why ``player`` (None: a player not known yet) may not play for the team named ``team``
#: ("" for none) in ``tournament``, as a sentence, or None. A league match day fields only
#: its teams' rostered players, and a binding one changes no team (5.5.3). Filled by leagues.
team_refused = Hook("tournaments.team_refused", lambda tournament, player, team: None)

#: A registered player's team changed from ``before`` to ``after`` (team names, "" for
#: none), inside the change's transaction: a league records it and withdraws the check of
#: a checked match day. Filled by leagues.
team_changed = Hook("tournaments.team_changed", lambda registration, before, after, user: None)

#: The fixed seating of series ``number`` for ``players`` (the ids the series seats), as
#: tables of player ids in seat order, or None: the draw seats them. A league match day of
#: up to four teams answers with its seating plan (Setzplan). Filled by leagues.
seating_plan = Hook("tournaments.seating_plan", lambda tournament, number, players: None)

#: Whether ``tournament`` is a league's match day: its exports are then the league's
#: workbook, otherwise the tournament's own file (a Preisskat is no league). Filled by leagues.
league_match_day = Hook("tournaments.league_match_day", lambda tournament: False)

#: Who did a step (a correction, a re-opening), as a person reads it: by default the
#: account's user name; the league's host accounts read as the hall's upload. Filled by leagues.
account_name = Hook("tournaments.account_name", lambda user: "" if user is None else user.get_username())

#: The dashboard's extra panels for ``tournament``, as rendered HTML (a practice
#: tournament's "play in background"); filled by rehearsal. Without it the dashboard has none.
dashboard_panels = Hook("tournaments.dashboard_panels", lambda request, tournament: [])
