"""Hooks scoring declares and a higher app (referees) fills: see :mod:`tournaments.hooks`."""

from __future__ import annotations

from django.db import models

from tournaments.hooks import Hook

#: An expression on a query of games: the reason of each game's latest referee
#: correction, None where there is none. The referees app fills it; until then no deal
#: is marked corrected.
correction_reason = Hook(
    "scoring.correction_reason", lambda: models.Value(None, output_field=models.TextField(null=True))
)

#: A condition on a query of games: the game was changed by a referee's correction (the
#: table link may no longer change it; the second list no longer has to agree with it).
#: The referees app fills it; until then no game is corrected.
corrected = Hook("scoring.corrected", lambda: models.Q(pk__in=[]))
