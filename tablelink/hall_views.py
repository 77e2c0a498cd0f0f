"""The table link's connection check before play (dashboard.hall says what it is for).

The page (static/js/hall-check.js) sends round trips to :func:`ping` and posts what it
measured to :func:`report`; both are opened by the link's token like every table-link
URL, and both refuse once a deal is entered at the table (409) or the series is
finished (410): the check adds nothing while play is on. A ping is one small query and
an empty answer that no cache keeps (tablelink.links.CapabilityURLHeaders).
"""

from __future__ import annotations

from django.conf import settings
from django.db.models import Exists, OuterRef, Q
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.views.decorators.http import require_POST

from dashboard import hall
from scoring.models import Game
from tournaments.models import Series, Table


def _table(token: str) -> Table:
    """The link's table (the sheet's or the second list's token) with its series: one query."""
    table = Table.objects.select_related("series").filter(Q(token=token) | Q(control_token=token)).first()
    if table is None:
        raise Http404("No such table link.")
    return table


def ping(request: HttpRequest, token: str) -> HttpResponse:
    """One round trip: an empty 200 before play, 409 once a deal is entered, 410 after the series."""
    row = (
        Table.objects.filter(Q(token=token) | Q(control_token=token))
        .annotate(started=Exists(Game.objects.filter(table=OuterRef("pk"))))
        .values_list("series__status", "started")
        .first()
    )
    if row is None:
        raise Http404("No such table link.")
    if request.method not in ("GET", "HEAD"):
        return HttpResponse(status=405, headers={"Allow": "GET, HEAD"})
    status, started = row
    if status == Series.Status.FINISHED:
        return HttpResponse(status=410, content_type="text/plain")
    if started:
        return HttpResponse(status=409, content_type="text/plain")
    return HttpResponse(b"", content_type="text/plain")


@require_POST
def report(request: HttpRequest, token: str) -> HttpResponse:
    """Keep what the phone measured as the table's latest check; answer its state and what to say."""
    table = _table(token)
    # "cut=1": the table's first deal stopped the check; what it measured so far (hall.record).
    cut_short = request.POST.get("cut") == "1"
    try:
        check = hall.record(table, hall.parse_report(request.POST, cut_short=cut_short), cut_short=cut_short)
    except hall.Refused as refused:
        return JsonResponse({"error": refused.message}, status=refused.status)
    state = hall.classify(check)
    return JsonResponse({"state": state.value, "label": str(state.label), "text": hall.verdict(check)})


def sheet_context(table: Table, entered: int, closed: bool) -> dict | None:
    """What the link page's check needs before play (one query), or None once play is on."""
    if entered or closed:
        return None
    check = hall.latest(table)
    return {
        "check": check,
        "state": hall.classify(check),
        # Automatically on the first open of a table never checked (a helper scanning the
        # table cards); the players' phones later find it checked and do not check again.
        "auto": check is None,
        "pings": settings.HALL_CHECK_PINGS,
        "interval": settings.HALL_CHECK_INTERVAL_MS,
        "timeout": settings.HALL_CHECK_TIMEOUT_MS,
    }
