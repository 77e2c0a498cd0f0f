"""django-tables2 tables of the standings: sortable columns over ranked rows."""

from __future__ import annotations

import django_tables2 as tables
from django.utils.translation import gettext_lazy as _


def rows(ranked) -> list[dict]:
    """Flatten ranked standings for the table (sorting happens on these values)."""
    return [
        {
            "place": r.place,
            "name": r.item.name,
            "club": r.item.club,
            "points": r.rating.points,
            "won": r.rating.won,
            "lost": r.rating.lost,
            "bonus": r.rating.bonus,
            "rating": r.rating.rating,
            "tables": r.item.tables,
            "decided_by": r.decided_by,
            "player_id": r.item.player_id,
        }
        for r in ranked
    ]


class Num(tables.Column):
    def __init__(self, *args, **kwargs) -> None:
        kwargs.setdefault("attrs", {"td": {"class": "num"}, "th": {"class": "num"}})
        super().__init__(*args, **kwargs)


class StandingsTable(tables.Table):
    place = Num(verbose_name=_("Place"))
    # Linked to the player's statistics where the view puts a "url" into the row.
    name = tables.Column(verbose_name=_("Player"), linkify=lambda record: record.get("url"))
    club = tables.Column(verbose_name=_("Club"))
    points = Num(verbose_name=_("Game points"))
    won = Num(verbose_name=_("Won"))
    lost = Num(verbose_name=_("Lost"))
    bonus = Num(verbose_name=_("Bonus"))
    rating = Num(verbose_name=_("Rating"))
    tables = Num(verbose_name=_("Tables"))

    class Meta:
        template_name = "django_tables2/table.html"
        attrs = {"class": "standings"}
        order_by = ("place",)
        row_attrs = {"class": lambda record: "tie-lot" if record["decided_by"] == "lot" else ""}
