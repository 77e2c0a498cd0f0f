"""What every page's template knows of the office itself: its version, for the footer."""

from __future__ import annotations

from django.http import HttpRequest

from skat import __version__


def office(request: HttpRequest) -> dict[str, str]:
    return {"office_version": __version__}
