"""The version of a table's list, as a page of the table link shows it.

The table link answers a deal with only what changed on the phone's page
(tablelink.answers) only when nothing but that deal changed since the page was
rendered: the page's form carries the version it shows (``sheet_version``), and
scoring.entry.add_game reads the version under the table's lock just before the deal's
insert (in the check it runs there anyway) and knows the version after it.
"""

from __future__ import annotations

from django.db.models import Count, Max, Sum

from tournaments.models import Table

from .models import Game, ResultsMark, ScoresheetLine


def read(table: Table, model: type[ScoresheetLine] = Game) -> str:
    """The version of a table's list, as a page showing it was rendered: it changes at
    every change of what that page shows of the list.

    The sheet (Game): the table's results counter (:class:`ResultsMark`, scope the table's
    id), which the triggers (scoring.triggers) count up at every insert, update and delete
    of the table's games and of its sign-off, whatever wrote them. The second list
    (ControlEntry), which no trigger counts: its entries' count, the sum of their versions
    and their largest id. A correction raises its entry's version (rewrite_deal), an
    insert the count and the largest id, a delete the count: no change leaves all three
    as they were. Read before the list (a change in between makes the page newer than its
    version: the next deal gets the whole sheet, never a lean answer to a page it misses).
    """
    if model is Game:
        mark = (
            ResultsMark.objects.filter(tournament_id=table.series.tournament_id, scope=table.pk)
            .values_list("version", flat=True)
            .first()
        )
        return text(model, (mark,))
    found = model.objects.filter(table=table).aggregate(n=Count("pk"), s=Sum("version"), m=Max("pk"))
    return text(model, (found["n"], found["s"], found["m"]))


def text(model: type[ScoresheetLine], values: tuple) -> str:
    """The version's text from its values, as :func:`read` reads them or scoring.entry's
    check under the lock (None: no mark or no entry yet)."""
    if model is Game:
        return str(values[0] or 0)
    return ".".join(str(value or 0) for value in values)


def after(model: type[ScoresheetLine], before: tuple, game: ScoresheetLine) -> str:
    """The list's version once ``game`` is inserted, under the table's lock, where every
    writer of the table's games waits (save_deal, rewrite_deal, the referees' corrections,
    the sign-off: signoff.confirm): the insert counts the mark once (the insert trigger), and
    adds one entry, its version and its id to the second list's."""
    if model is Game:
        return str((before[0] or 0) + 1)
    count, total, _top = before
    return text(model, ((count or 0) + 1, (total or 0) + game.version, game.pk))
