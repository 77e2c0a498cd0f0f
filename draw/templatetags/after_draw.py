"""The series page's box for the changes after the draw (no-show, late arrival, redraw)
and the reprints a change asks for: one include that loads what it shows itself (a fixed
number of queries, whatever the size of the series), so the series page stays as it is."""

from __future__ import annotations

from django import template

from core.params import number_param
from scoring.lists import tables_with_deals
from tournaments.models import Series

from ..arrivals import arriving
from ..forms import LateArrivalForm, NoShowForm, RedrawForm

register = template.Library()


@register.inclusion_tag("draw/_after_draw.html", takes_context=True)
def after_draw(context, series: Series) -> dict:
    """Four queries: the series' tables, where deals are entered (two), who may arrive."""
    request = context["request"]
    tables = dict(series.tables.order_by().values_list("number", "pk"))
    asked = request.GET.get("reprint", "")
    reprint = sorted({number_param(n) for n in asked.split(",")} & tables.keys())
    started = tables_with_deals(tables.values()) if series.status != Series.Status.FINISHED else set()
    changeable = series.status != Series.Status.FINISHED and len(started) < len(tables)
    result = {
        "tournament": series.tournament,
        "series": series,
        "reprint": reprint,
        "reprint_query": ",".join(map(str, reprint)),
        "changeable": changeable,
        "csrf_token": context.get("csrf_token"),
    }
    if changeable:
        result |= {
            "no_show_form": NoShowForm(series=series, auto_id="id_noshow_%s"),
            "late_form": LateArrivalForm(arriving=arriving(series.tournament, series), auto_id="id_late_%s"),
            "redraw_form": RedrawForm(auto_id="id_redraw_%s") if not started else None,
        }
    return result
