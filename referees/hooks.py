"""Hooks referees declares and a higher app (leagues) fills: see :mod:`tournaments.hooks`."""

from __future__ import annotations

from tournaments.hooks import Hook

#: Why no game of this tournament may be corrected any more, as a translatable template
#: and its parameters (``RuleError``'s), or None: a league match day the league manager
#: marked binding is closed. The leagues app fills it; until then every finished sheet
#: can be corrected.
correction_refused = Hook("referees.correction_refused", lambda tournament_id: None)

#: A game of the tournament was corrected (``note`` says which: series, table, deal), called
#: inside the correction's transaction: a league withdraws the check of a checked match day
#: so its manager checks it again. Filled by leagues; by default nothing follows.
game_corrected = Hook("referees.game_corrected", lambda tournament_id, *, user, note: None)

#: The front page's panels of the apps above referees (referees fills tournaments' own
#: hook, front_page_panels, and adds these after its list of refereed tournaments).
front_page_above_referees = Hook("referees.front_page_above_referees", lambda request: [])
