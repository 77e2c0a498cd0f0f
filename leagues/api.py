"""``POST /league/api/publish/``: a host's tournament file (leagues.publication).

Not a page: no session and no CSRF token, the host's token authenticates
(``Authorization: Token <token>``). Answers JSON: 201 stored, 200 already stored (a
resend, also by another host of the league: ``published_by`` names who sent it first),
or an error status with ``{"error": "<field>: <reason>"}`` (429 with Retry-After after
too many unknown tokens from one client: leagues.publication.host_of_request). A hall that imported its match
day's package names it by its key (``?key=``); ``?matchday=ID`` stays for older halls.
"""

from __future__ import annotations

from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, JsonResponse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from .publication import PublicationRefused, host_of_request, match_day_of_key, receive, refusal


def _token(request: HttpRequest) -> str | None:
    scheme, _sep, value = request.headers.get("Authorization", "").partition(" ")
    return value.strip() if scheme.lower() in ("token", "bearer") else None


@csrf_exempt
@require_POST
def publish(request: HttpRequest) -> JsonResponse:
    try:
        host = host_of_request(request, _token(request))
        raw = request.GET.get("matchday")
        key = request.GET.get("key")
        # ASCII digits only ("²" passes isdigit() but int() refuses it), and no more than an id has.
        if raw is not None and not (raw.isascii() and raw.isdigit() and len(raw) <= 18):
            raise PublicationRefused(400, f"matchday: {raw[:40]!r} is not a match day number (its id)")
        if key is not None:
            if raw is not None:
                raise PublicationRefused(400, "key: give the match day's key or its id (matchday), not both")
            found = match_day_of_key(host, key)
            raw = None if found is None else str(found)
        try:
            content = request.body
        except RequestDataTooBig:
            raise PublicationRefused(
                413, "file: larger than this server accepts (DATA_UPLOAD_MAX_MEMORY_SIZE)"
            ) from None
        received = receive(host, content, int(raw) if raw else None)
    except PublicationRefused as refused:
        return refusal(refused)
    publication = received.publication
    if received.corrected:
        deals = "; ".join(received.corrected)
        message = f"stored as corrections of match day {publication.match_day.number}: {deals}"
    elif received.created:
        message = "stored"
    elif publication.host_id == host.pk:
        message = "already stored: this file was published before, nothing changed"
    else:
        message = f"already stored: {publication.host.name} published this file before, nothing changed"
    answer = {
        "stored": received.created,
        "tournament": publication.tournament_id,
        "match_day": publication.match_day_id,
        "published_by": publication.host.name,
        "message": message,
        "differences": received.differences,
        "corrected": received.corrected,
    }
    return JsonResponse(answer, status=201 if received.created else 200)
