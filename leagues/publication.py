"""Hall-to-league publication: a host's tournament file, received on the league server.

A match day (or any tournament) run offline on a hall laptop is sent, when a connection
exists, as the tournament file ``export_tournament`` writes (:func:`transfer.exports.league_xlsx`),
to ``POST /league/api/publish/`` with the host's token. The server imports it with
:func:`transfer.tournament_file.import_tournament` (every game valued again by the engine) in one
transaction. Sending the same file twice changes nothing: the SHA-256 of the file's
cells (not its bytes: each export stamps its own creation time into the XLSX) is stored
with the publication, and a resend, by this host or another of the league, answers with
the first one. A match day that already has results on the server is not overwritten
(the league manager corrects it).

Every byte a host sends is read through the guard of a director's upload
(:mod:`core.workbooks`) under :data:`PUBLICATIONS`, before any parser sees it: the
archive is checked first, the digest is read with the guard's capped reader, and the
import reads under the same limits. No refusal names a file of the server's.
"""

from __future__ import annotations

import dataclasses
import hashlib
import io
import json
import secrets
from dataclasses import dataclass

from django.conf import settings
from django.db import IntegrityError, transaction
from django.http import HttpRequest, JsonResponse

from accounts.guesses import GuessLimit
from core.workbooks import MB, Limits, WorkbookError, open_workbook, rows
from transfer.tournament_file import TransferError, import_tournament

from . import hall_files
from .hall_files import PublicationRefused
from .models import Host, League, LeagueEvent, MatchDay, Publication

__all__ = [
    "PublicationRefused",
    "Received",
    "TooManyGuesses",
    "content_digest",
    "host_of",
    "host_of_request",
    "match_day_of_key",
    "new_host",
    "receive",
    "refusal",
]

#: What one publication may hold. A match day's file (16 players, three series) is about
#: 30 KB (250 KB of XML); a tournament of 96 players in three series 130 KB (1.3 MB).
#: The guard's reader costs about 0.45 s of CPU per MB of XML, and openpyxl about 30 MB
#: of memory per MB of a part it parses whole (a row, the styles): at these sizes the
#: costliest body measured (2 MB of cell formats, read by the digest and the import)
#: takes 1.2 s and 37 MB, a row of 110,000 cells 0.6 s and 60 MB (tests/fuzz/
#: test_publication_fuzz.py). A 3,000-player tournament (3 MB, 40 MB of XML, 17 s to read)
#: is too large for the API: the league manager imports it on the server (``import_tournament``).
PUBLICATIONS = Limits(
    members=64, unpacked=2 * MB, member=2 * MB, shared_strings=256 * 1024, columns=64, rows=20_000, seconds=1.5
)
#: The import reads the same bytes again after the digest has read them within the time
#: budget; its own CPU (the engine, the database) is no reading time, so it has none.
IMPORTS = dataclasses.replace(PUBLICATIONS, seconds=None)
#: The most players a published file may hold: a match day has a few dozen, a hall's
#: tournament rarely more than a few hundred; a larger one is imported on the server
#: (``manage.py import_tournament``). Each player is a row written under the league's lock.
MOST_PLAYERS = 400
#: The largest body accepted (below Django's DATA_UPLOAD_MAX_MEMORY_SIZE of 2.5 MB).
MAX_BYTES = 2 * MB


@dataclass
class Received:
    publication: Publication
    created: bool
    differences: list[str]
    #: The deals a new publication of a match day with results corrected on the server.
    corrected: list[str] = dataclasses.field(default_factory=list)


def digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def content_digest(content: bytes) -> str:
    """The SHA-256 of every sheet's name and cell values: the same tournament file exported
    twice has the same digest, whatever time the workbook carries.

    Read through the guard (:data:`PUBLICATIONS`): the archive is checked before openpyxl
    opens it and rows are read with caps. Rows end at their last value, as the office
    writes them, so the digest of an office export is the one stored before the guard.
    """
    sha = hashlib.sha256()
    try:
        workbook = open_workbook(io.BytesIO(content), PUBLICATIONS)
        try:
            for sheet in workbook.worksheets:
                sha.update(json.dumps(sheet.title).encode())
                for _number, values in rows(sheet):
                    sha.update(json.dumps(values, default=str).encode())
        finally:
            workbook.close()
    except WorkbookError as error:
        raise PublicationRefused(400, f"file: {error}") from None
    except Exception:  # a sheet's part missing or unreadable before its first row
        raise PublicationRefused(400, "file: not a readable XLSX workbook") from None
    return sha.hexdigest()


def new_host_token() -> str:
    """A new host token that never starts with "-": given as ``--token -Ky...`` to
    publish_tournament or import_matchday, such a token (one in 64) was taken for an option
    and refused ("expected one argument")."""
    token = secrets.token_urlsafe(32)
    while token.startswith("-"):
        token = secrets.token_urlsafe(32)
    return token


def new_host(league, name: str) -> tuple[Host, str]:
    """A host and its token (shown once; only its digest is kept)."""
    token = new_host_token()
    return Host.objects.create(league=league, name=name, token_digest=digest(token)), token


def host_of(token: str | None) -> Host:
    if not token:
        raise PublicationRefused(401, "Authorization: send the host's token as 'Authorization: Token <token>'")
    host = Host.objects.select_related("league").filter(token_digest=digest(token), active=True).first()
    if host is None:
        raise PublicationRefused(401, "Authorization: the token is unknown or withdrawn; ask the league manager")
    return host


class TooManyGuesses(PublicationRefused):
    """This client sent too many unknown tokens: 429, again in ``retry_after`` seconds."""

    def __init__(self, retry_after: int) -> None:
        super().__init__(
            429,
            f"Authorization: too many unknown tokens from this address; try again in {retry_after} s "
            f"(at most {settings.LEAGUE_TOKEN_FAILURE_LIMIT} within {settings.LEAGUE_TOKEN_WINDOW} s; "
            "the league manager gives the host's token)",
        )
        self.retry_after = retry_after


def _token_guesses() -> GuessLimit:
    return GuessLimit("host-token", settings.LEAGUE_TOKEN_FAILURE_LIMIT, settings.LEAGUE_TOKEN_WINDOW)


def host_of_request(request: HttpRequest, token: str | None) -> Host:
    """:func:`host_of` within a guess limit per client (accounts.guesses): a token of 256
    random bits is never guessed, and the endpoints are no oracle to ask without end either.
    An unknown (or withdrawn) token counts against the client that sent it; no token, the
    right token and a refusal count nothing. Locked, a client's right token is refused too;
    another client's never is. The guess is counted before its token is checked, so the
    limit holds under a burst too."""
    if not token:
        wait = _token_guesses().retry_after(request)
        if wait is not None:
            raise TooManyGuesses(wait)
        return host_of(token)
    # Counted before the check (accounts.guesses.GuessLimit.begin): a burst gets at most the limit's checks.
    guess = _token_guesses().begin(request)
    if guess.wait is not None:
        raise TooManyGuesses(guess.wait)
    host = host_of(token)  # an unknown token raises: its row stays, a failure
    guess.right()
    return host


def refusal(refused: PublicationRefused) -> JsonResponse:
    """A refusal's JSON answer ``{"error": ...}`` with its status (and Retry-After on 429)."""
    response = JsonResponse({"error": refused.message}, status=refused.status)
    if isinstance(refused, TooManyGuesses):
        response["Retry-After"] = str(refused.retry_after)
    return response


def match_day_of_key(host: Host, key: str) -> int | None:
    """The id of the host's league's match day of this key (the match-day package's), which
    the hall's publication names instead of the server's id; None for a key the server
    never made (a match day the hall set up itself): that one is found as before, by the
    file's teams and date (:func:`hall_files.resolve`)."""
    if not (len(key) == 32 and all(c in "0123456789abcdef" for c in key)):
        raise PublicationRefused(
            400, f"key: {key[:40]!r} is not a match day's key (32 hex digits, from the match-day package)"
        )
    return MatchDay.objects.filter(key=key, group__league_id=host.league_id).values_list("pk", flat=True).first()


def receive(host: Host, content: bytes, match_day_id: int | None = None) -> Received:
    """Store the file once in its league as one of the host's match days: a new
    publication, the one already stored, or (a match day with results) the changed deals
    as audited corrections."""
    if not content:
        raise PublicationRefused(400, "file: empty; send the tournament file (XLSX) as the request body")
    if len(content) > MAX_BYTES:
        raise PublicationRefused(
            413,
            f"file: {len(content) / MB:.1f} MB; a publication is at most {MAX_BYTES // MB} MB "
            "(the league manager imports a larger tournament on the server)",
        )
    sha = content_digest(content)
    stored = _stored(host, sha, match_day_id)
    if stored is not None:
        return Received(stored, False, [])
    try:
        with transaction.atomic():
            # The league's files queue: two hosts sending the same file at once store it once.
            League.objects.select_for_update().filter(pk=host.league_id).exists()
            stored = _stored(host, sha, match_day_id)
            if stored is not None:
                return Received(stored, False, [])
            _stray(host, sha)
            match_day = _match_day(host, match_day_id)
            try:
                with transaction.atomic():  # the imported copy goes again when it only corrects deals
                    result = _import(content, list(host.league.managers.all()))
                    if match_day is None:
                        match_day = hall_files.resolve(host, result.tournament)
                        _own(host, match_day)
                    if _has_results(match_day):
                        raise _Corrections(hall_files.plan(match_day, result.tournament), result.differences)
                    hall_files.attach(match_day, result.tournament)
            except _Corrections as corrections:
                return _correct(host, sha, match_day, corrections)
            publication = Publication.objects.create(
                host=host, digest=sha, match_day=match_day, tournament=result.tournament
            )
            LeagueEvent.objects.create(match_day=match_day, kind=LeagueEvent.Kind.PUBLISHED, note=host.name)
            return Received(publication, True, result.differences)
    except IntegrityError:
        # The same file from the same host arrived twice at once: the other request stored it.
        stored = _stored(host, sha, match_day_id)
        if stored is None:
            raise
        return Received(stored, False, [])


class _Corrections(Exception):
    """Leaves the savepoint of the import (its copy is not kept) with the deals to correct."""

    def __init__(self, plan: hall_files.Plan, differences: list[str]) -> None:
        super().__init__("corrections")
        self.plan = plan
        self.differences = differences


def _has_results(match_day: MatchDay) -> bool:
    return match_day.tournament is not None and match_day.tournament.series.exists()


def _correct(host: Host, sha: str, match_day: MatchDay, corrections: _Corrections) -> Received:
    """The hall's file of a match day with results: its changed deals, audited."""
    if not corrections.plan:
        raise PublicationRefused(409, f"file: match day {match_day.number} has these results already; no deal differs")
    done = hall_files.apply(match_day, corrections.plan, host)
    publication = Publication.objects.create(
        host=host, digest=sha, match_day=match_day, tournament=match_day.tournament
    )
    note = f"{host.name}: " + "; ".join(done)
    LeagueEvent.objects.create(match_day=match_day, kind=LeagueEvent.Kind.REPUBLISHED, note=note[:500])
    return Received(publication, True, corrections.differences, done)


def _stray(host: Host, sha: str) -> None:
    """A copy of this file stored stand-alone before hosts published only to match days
    goes: the file is now stored for its match day (not answered "already stored")."""
    for stray in Publication.objects.filter(host__league_id=host.league_id, digest=sha, match_day__isnull=True):
        if stray.tournament is not None:
            stray.tournament.delete()
        stray.delete()


def _stored(host: Host, sha: str, match_day_id: int | None) -> Publication | None:
    """The league's publication of the same file (the same digest), whoever sent it.

    A second host of the league sending a file already stored (both clubs' laptops
    published the evening's results) gets the stored publication, as a resend does, and
    the answer names who published it: the results are on the server once, which is what
    the league official wants, and the hall's ``publish_tournament`` ends as "already
    stored" instead of telling the second club to try again. Only when he names another
    match day than the stored one's is it a 409 naming the publisher: storing the file
    again would count its results twice, and "already stored" would hide the mismatch.
    """
    stored = (
        Publication.objects.select_related("host", "match_day")
        .filter(host__league_id=host.league_id, digest=sha)
        .order_by("received_at", "pk")
        .first()
    )
    if stored is not None and stored.rejected_at is not None:
        raise PublicationRefused(
            409,
            f"file: the league manager removed this file on {stored.rejected_at:%Y-%m-%d} ({stored.rejection}); "
            "correct it on the hall and publish again",
        )
    if stored is not None and stored.match_day_id is None:
        return None  # stored stand-alone before hosts published only to match days (_stray)
    if stored is None or stored.host_id == host.pk or match_day_id in (None, stored.match_day_id):
        return stored
    raise PublicationRefused(
        409,
        f"file: {stored.host.name} published this file as match day {stored.match_day.number} "
        f"on {stored.received_at:%Y-%m-%d}; "
        "a file is stored once, the league manager moves it",
    )


def _match_day(host: Host, match_day_id: int | None) -> MatchDay | None:
    if match_day_id is None:
        return None
    match_day = (
        MatchDay.objects.select_for_update(of=("self",))
        .select_related("group__league", "tournament")
        .filter(pk=match_day_id, group__league=host.league)
        .first()
    )
    if match_day is None:
        raise PublicationRefused(404, f"matchday: there is no match day {match_day_id} in {host.league}")
    _own(host, match_day)
    return match_day


def _own(host: Host, match_day: MatchDay) -> None:
    """A host publishes only to the match days it hosts."""
    if match_day.host_id is None:
        raise PublicationRefused(
            403, f"matchday: match day {match_day.number} has no host yet; the league manager names its host"
        )
    if match_day.host_id != host.pk:
        raise PublicationRefused(403, f"matchday: match day {match_day.number} is hosted by {match_day.host}")


def _import(content: bytes, managers):
    """Import from memory (no temporary file whose name a refusal could show), under the
    publication's limits, never the command line's."""
    try:
        return import_tournament(io.BytesIO(content), directors=managers, limits=IMPORTS, most_players=MOST_PLAYERS)
    except TransferError as error:
        raise PublicationRefused(400, f"file: {error}") from None
