"""django-tables2 tables of the standings: sortable columns over ranked rows."""

from __future__ import annotations

import django_tables2 as tables
from django.utils.formats import number_format
from django.utils.html import format_html_join
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _


def _figures(r) -> dict:
    """A ranked entry's place and counts, as the standings tables show them."""
    return {
        "place": r.place,
        "name": r.item.name,
        "points": r.rating.points,
        "won": r.rating.won,
        "lost": r.rating.lost,
        "bonus": r.rating.bonus,
        "rating": r.rating.rating,
        "tables": r.item.tables,
        "decided_by": r.decided_by,
        "unconfirmed": getattr(r.item, "unconfirmed", 0),
    }


def rows(ranked) -> list[dict]:
    """Flatten ranked standings for the table (sorting happens on these values)."""
    return [
        _figures(r) | {"club": r.item.club, "player_id": r.item.player_id, "start_number": r.item.start_number}
        for r in ranked
    ]


def team_rows(ranked) -> list[dict]:
    """Flatten ranked team standings (:func:`standings.places.team_standings`) for the table."""
    return [_figures(r) | {"members": r.item.members, "team_id": r.item.team_id} for r in ranked]


class Num(tables.Column):
    def __init__(self, *args, **kwargs) -> None:
        kwargs.setdefault("attrs", {"td": {"class": "num"}, "th": {"class": "num"}})
        super().__init__(*args, **kwargs)


class SheetsColumn(tables.Column):
    """How final a player's result is (5.5.3: only confirmed sheets are)."""


class StandingsTable(tables.Table):
    place = Num(verbose_name=_("Place"))
    #: The player's start number (tournaments.Registration), what the wall and the door know him by.
    start_number = Num(verbose_name=_("No."), order_by=("start_number", "place"))
    # Linked to the player's statistics where the view puts a "url" into the row.
    name = tables.Column(verbose_name=_("Player"), linkify=lambda record: record.get("url"))
    # Classed "club": on a phone a long club name wraps instead of widening the table.
    club = tables.Column(verbose_name=_("Club"), attrs={"td": {"class": "club"}, "th": {"class": "club"}})
    # More is better in these: the first click on the heading sorts the best first.
    points = Num(verbose_name=_("Game points"), order_by=("-points", "place"))
    won = Num(verbose_name=_("Won"), order_by=("-won", "place"))
    lost = Num(verbose_name=_("Lost"), order_by=("lost", "place"))
    bonus = Num(verbose_name=_("Bonus"), order_by=("-bonus", "place"))
    # Classed "rating": on a phone it stays at the table's right edge while the rest scrolls.
    rating = Num(
        verbose_name=_("Rating"),
        order_by=("-rating", "place"),
        attrs={"td": {"class": "num rating"}, "th": {"class": "num rating"}},
    )
    tables = Num(verbose_name=_("Tables"))
    unconfirmed = SheetsColumn(verbose_name=_("Sheets"), attrs={"td": {"class": "sheets"}})

    class Meta:
        template_name = "django_tables2/table.html"
        attrs = {"class": "standings"}
        order_by = ("place",)
        row_attrs = {"class": lambda record: _row_class(record)}

    def render_unconfirmed(self, value: int) -> str:
        """Only confirmed sheets are final (5.5.3): say how many of the player's are not yet."""
        if not value:
            return gettext("final")
        return gettext("provisional (unconfirmed sheets: %(n)s)") % {"n": value}


class TeamStandingsTable(StandingsTable):
    """The teams: every count is the sum of its players' (DOMAIN, "Teams and leagues")."""

    name = tables.Column(verbose_name=_("Team"))
    start_number = None
    club = None
    members = tables.Column(verbose_name=_("Players"), orderable=False, attrs={"td": {"class": "members"}})

    class Meta(StandingsTable.Meta):
        # The players last: on a phone the figures come first, the names scroll in after them.
        sequence = ("place", "name", "points", "won", "lost", "bonus", "rating", "tables", "unconfirmed", "members")

    def render_members(self, value: list[tuple[str, int]]) -> str:
        """Each player with his rating, best first: who carried the team."""
        return format_html_join(", ", "{} ({})", ((name, number_format(rating)) for name, rating in value))

    def render_unconfirmed(self, value: int) -> str:
        if not value:
            return gettext("final")
        return gettext("provisional (unconfirmed sheets of its players: %(n)s)") % {"n": value}


def _row_class(record: dict) -> str:
    classes = []
    if record["decided_by"] == "lot":
        classes.append("tie-lot")
    if record["unconfirmed"]:
        classes.append("provisional")
    return " ".join(classes)
