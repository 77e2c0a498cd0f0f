"""The package's pages: the hosts' endpoint (token), the manager's download, the hall's import.

``GET /league/api/package/[?matchday=KEY]`` is no page: the host's token authenticates
(``Authorization: Token <token>``), as for a publication; it answers the package of the
host's own match days as JSON, or ``{"error": "<field>: <reason>"}`` with 401 (token), 400
(a key that is none), 403 (another host's match day), 404 (no such match day) or 429 with
Retry-After (too many unknown tokens from this client: leagues.publication.host_of_request).
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from core.filenames import Name, file_name
from leagues.models import League
from leagues.permissions import match_day_manager_required
from leagues.publication import PublicationRefused, host_of_request, refusal

from . import fetching
from .export import NoMatchDay, as_json, host_match_days, package
from .forms import ImportForm
from .imports import import_package
from .schema import KEY, PackageError, read_package

JSON_TYPE = "application/json; charset=utf-8"


def _token(request: HttpRequest) -> str | None:
    scheme, _sep, value = request.headers.get("Authorization", "").partition(" ")
    return value.strip() if scheme.lower() in ("token", "bearer") else None


@require_GET
def api_package(request: HttpRequest) -> HttpResponse:
    key = request.GET.get("matchday")
    try:
        host = host_of_request(request, _token(request))
        if key is not None and not KEY.fullmatch(key):
            raise PublicationRefused(400, f"matchday: {key[:40]!r} is not a match day's key (32 hex digits)")
        days = host_match_days(host, key)
    except PublicationRefused as refused:
        return refusal(refused)
    except NoMatchDay as missing:
        return JsonResponse({"error": str(missing)}, status=missing.status)
    response = HttpResponse(as_json(package(host, days)), content_type=JSON_TYPE)
    response["Cache-Control"] = "no-store"  # rosters with membership numbers: no cache keeps them
    return response


@match_day_manager_required
def match_day_package(request: HttpRequest, match_day) -> HttpResponse:
    """The same package as a file, for a hall without a connection to the server."""
    if match_day.host is None:
        raise Http404("The match day has no host yet.")
    response = HttpResponse(as_json(package(match_day.host, host_match_days(match_day.host, match_day.key))))
    response["Content-Type"] = JSON_TYPE
    group = match_day.group
    name = file_name(Name(str(group.league)), Name(group.name), match_day.number, suffix=".json", fallback="league")
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


@login_required
def import_page(request: HttpRequest) -> HttpResponse:
    """The hall office imports its match day in one step: a file or the server's address.
    For whoever runs leagues here: sets them up, or manages one."""
    user = request.user
    if not (user.has_perm("leagues.add_league") or League.objects.managed_by(user).exists()):
        raise PermissionDenied("You neither set up nor manage leagues on this office.")
    form = ImportForm(request.POST, request.FILES) if request.method == "POST" else ImportForm()
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            if data["file"]:
                found = read_package(data["file"])
            else:
                found = read_package(fetching.fetch(data["url"], data["token"], key=data["key"]))
            done = import_package(found, request.user)
        except PackageError as refused:
            form.add_error(None, _("Nothing was imported: %(reason)s") % {"reason": refused})
        else:
            for line in done.changes:
                messages.success(request, line)
            if not done.changes:
                messages.info(request, _("Nothing changed: this office has the package already."))
            return redirect("leagues:league", done.league.pk)
    status = 422 if form.is_bound else 200
    return render(request, "packages/import.html", {"form": form}, status=status)
