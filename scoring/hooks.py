"""Hooks scoring declares and higher apps (signoff, referees) fill: see :mod:`tournaments.hooks`."""

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

#: An expression on a query with a table (``table``: the path to it from the query's rows,
#: "pk" on tables, "table" on deals): true where that table's sheet is signed off, which
#: locks it against the table link and ends its lists' differences (5.5.3). The signoff
#: app fills it; until then no sheet is signed.
sheet_signed = Hook("scoring.sheet_signed", lambda table="pk": models.Value(False, output_field=models.BooleanField()))
