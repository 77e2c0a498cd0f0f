"""Hooks: how a lower layer shows something of a higher one without importing it.

The office's apps import only downwards (README, "Layout"): tournaments, then scoring,
then referees. When a lower app needs an answer only a higher one has (the seeded draw
needs the standings; the front page lists the tournaments a user referees), it declares
a :class:`Hook` here with a default, and the higher app fills it in its
``AppConfig.ready``. Nothing here knows who fills it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


class Hook:
    """One slot a higher app fills; called before that, it answers with its default."""

    def __init__(self, name: str, default: Callable[..., Any]) -> None:
        self.name = name
        self._default = default
        self._filled: Callable[..., Any] | None = None

    def fill(self, function: Callable[..., Any]) -> Callable[..., Any]:
        """Fill the slot (usable as a decorator); a second app filling it is a mistake."""
        if self._filled is not None and self._filled is not function:
            raise RuntimeError(f"the hook {self.name} is filled already")
        self._filled = function
        return function

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return (self._filled or self._default)(*args, **kwargs)


#: The players of a tournament in the order of its standings (player ids, best first),
#: for a seeded draw (3.1.1); filled by scoring. Without results nobody is ranked.
ranking = Hook("tournaments.ranking", lambda tournament: [])

#: The front page's extra panels for a user: (template name, context) pairs, e.g. the
#: tournaments he referees; filled by the apps that have some.
home_panels = Hook("tournaments.home_panels", lambda request: [])

#: Whether a deal of the series is entered (seats and tables are then fixed, 3.1.2);
#: filled by scoring, which keeps the games.
play_started = Hook("tournaments.play_started", lambda series: False)

#: (series, table) of every drawn table whose sheet is not confirmed yet (5.5.3): a seeded
#: draw on them rests on provisional results; filled by scoring, which keeps the sign-off.
unconfirmed_sheets = Hook("tournaments.unconfirmed_sheets", lambda tournament: [])

#: Whether a deal of any of the tournament's series is entered: then its rounds per series
#: are fixed (the sheets count them); filled by scoring, which keeps the games.
deals_entered = Hook("tournaments.deals_entered", lambda tournament: False)
