"""The series page's box for the changes after the draw (no-show, late arrival, redraw)
and the reprints a change asks for: one include, so the series page stays as it is."""

from __future__ import annotations

from django import template

from ..after_draw_forms import LateArrivalForm, NoShowForm, RedrawForm
from ..arrivals import arriving
from ..models import Series

register = template.Library()


@register.inclusion_tag("tournaments/_after_draw.html", takes_context=True)
def after_draw(context, series: Series, tables: list) -> dict:
    """``tables``: the series' tables as the series page has them (seats prefetched, the
    deals ``entered`` counted): one query more, for who may still arrive."""
    request = context["request"]
    numbers = {t.number for t in tables}
    asked = request.GET.get("reprint", "")
    reprint = sorted({int(n) for n in asked.split(",") if n.isdigit() and int(n) in numbers})
    open_tables = [t for t in tables if not t.entered]
    changeable = series.status != Series.Status.FINISHED and bool(open_tables)
    result = {
        "tournament": series.tournament,
        "series": series,
        "reprint": reprint,
        "reprint_query": ",".join(map(str, reprint)),
        "changeable": changeable,
        "csrf_token": context.get("csrf_token"),
    }
    if changeable:
        players = sorted(
            ((s.player_id, f"{s.player.name} ({t.number})") for t in open_tables for s in t.seats.all()),
            key=lambda p: p[1],
        )
        result |= {
            "no_show_form": NoShowForm(players=players, auto_id="id_noshow_%s"),
            "late_form": LateArrivalForm(arriving=arriving(series.tournament, series), auto_id="id_late_%s"),
            "redraw_form": RedrawForm(auto_id="id_redraw_%s") if len(open_tables) == len(tables) else None,
        }
    return result
