"""The live preview under a deal's form (htmx): what the engine makes of the fields so far.

Every form that values a deal (the table link's, a referee's correction) shows the same
preview, rendered here with the games' own template."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


def preview_response(request: HttpRequest, form) -> HttpResponse:
    """The preview of a bound game form: its value and outcome, or what is still missing."""
    form.is_valid()
    return render(request, "scoring/_preview.html", {"form": form, "outcome": form.outcome})
