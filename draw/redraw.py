"""Drawing a series again, as long as no deal of it is entered (3.1.2).

The same players the draw would seat now (late arrivals present, no-shows gone), the same
method (a seeded series is seeded again on the standings), earlier meetings and club and
team separation weighed as the draw does; a new seed, kept on the series, so the new draw
can be reproduced too. Every table is new: new links, new cards, new PIN slips.
"""

from __future__ import annotations

from django.db import transaction

from scoring.lists import tables_with_deals
from skat.draw import draw
from skat.rules import RuleError, gettext_noop
from tournaments.models import Series, Table, Tournament

from . import seating
from .series import entrants_of, previous_meetings, seeding, store_tables


def redraw_series(series: Series) -> seating.Change:
    """Draw ``series`` again. Raises RuleError (nothing changed) once a deal is entered at
    any of its tables, or for a finished series."""
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=series.tournament_id)
        series = Series.objects.get(pk=series.pk)
        if series.status == Series.Status.FINISHED:
            raise RuleError("series", gettext_noop("series {series} is finished"), "3.1.2", series=series.number)
        ids = list(Table.objects.select_for_update().filter(series=series).order_by("pk").values_list("pk", flat=True))
        started = tables_with_deals(ids)
        if started:
            numbers = sorted(Table.objects.filter(pk__in=started).values_list("number", flat=True))
            raise RuleError(
                "series",
                gettext_noop("series {series} cannot be drawn again: deals are entered at tables {tables}"),
                "3.1.2",
                series=series.number,
                tables=", ".join(map(str, numbers)),
            )
        entrants = entrants_of(tournament, series.number)
        ranking = seeding(tournament, entrants) if series.method == Series.Method.SEEDED else None
        # A new seed, derived from the old one: the new draw is reproducible as well.
        new_seed = (series.seed * 48271 + 11) % 2**31
        met = previous_meetings(tournament, before=series.number)
        result = draw(entrants, seed=new_seed, met=met, ranking=ranking)
        Table.objects.filter(pk__in=ids).delete()  # their seats with them
        tables = store_tables(series, result.tables)
        Series.objects.filter(pk=series.pk).update(
            seed=new_seed, repeat_meetings=result.repeat_meetings, club_meetings=result.club_meetings
        )
        names = dict(
            tournament.registrations.filter(player_id__in=[e.id for e in entrants]).values_list(
                "player_id", "player__name"
            )
        )
        return seating.Change(
            series=series.number,
            tables=[
                seating.TableChange(table.number, [names.get(p, "?") for p in players])
                for table, players in zip(tables, result.tables, strict=True)
            ],
        )
