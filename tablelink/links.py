"""The life of a table link: open while its series runs, closed once it is finished.

A link (``Table.token``, 128 random bits) opens one table of one series and nothing
else. When the director finishes the series the sheet is closed: the link still shows
the finished sheet read-only (the players check it before signing), but every entry
URL answers 410 Gone with a page that says why and who corrects it now (a referee,
5.5.3). A director can also replace a link (tournaments/link_views.py): the old token
then answers 404 like any unknown one.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse

from tournaments.models import Series, Table


def is_closed(table: Table) -> bool:
    """Entry through the link is over: the series is finished."""
    return table.series.status == Series.Status.FINISHED


def closed_response(request: HttpRequest, table: Table, link: str | None = None) -> HttpResponse:
    """410 Gone for an entry URL of a finished series; htmx follows to the read-only sheet
    of the same link (``link``: the token used, the sheet's or the second list's)."""
    link = link or table.token
    context = {"table": table, "series": table.series, "tournament": table.series.tournament, "link": link}
    response = render(request, "tablelink/link_closed.html", context, status=410)
    if getattr(request, "htmx", False):
        response["HX-Redirect"] = reverse("table:sheet", args=[link])
    return response


class CapabilityURLHeaders:
    """Middleware: a table link is a secret in the URL (a capability URL), so its pages
    are never stored by a shared cache or the browser's disk cache and never indexed
    (W3C, "Good Practices for Capability URLs"); Referrer-Policy same-origin (settings)
    keeps the link from other sites."""

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        match = getattr(request, "resolver_match", None)
        if match is not None and "token" in match.kwargs:
            response["Cache-Control"] = "no-store, private"
            response["X-Robots-Tag"] = "noindex, nofollow"
            # Not "no-referrer": browsers then send "Origin: null" with the page's own
            # forms and Django's CSRF check refuses them. The site-wide "same-origin"
            # (settings) already keeps the token from other sites.
        return response
