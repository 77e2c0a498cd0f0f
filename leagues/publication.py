"""Hall-to-league publication: a host's tournament file, received on the league server.

A match day (or any tournament) run offline on a hall laptop is sent, when a connection
exists, as the tournament file ``export_tournament`` writes (:func:`transfer.exports.league_xlsx`),
to ``POST /league/api/publish/`` with the host's token. The server imports it with
:func:`transfer.tournament_file.import_tournament` (every game valued again by the engine) in one
transaction. Sending the same file twice changes nothing: the SHA-256 of the file's
cells (not its bytes: each export stamps its own creation time into the XLSX) is stored
per host with the publication, and a resend answers with the first one. A match day that
already has results on the server is not overwritten (the league manager corrects it).
"""

from __future__ import annotations

import hashlib
import io
import json
import secrets
import tempfile
from dataclasses import dataclass

from django.db import IntegrityError, transaction

from transfer.tournament_file import TransferError, import_tournament

from .models import Host, LeagueEvent, MatchDay, Publication

#: The largest file accepted (a tournament of 3,000 players is about 3 MB).
MAX_BYTES = 10 * 1024 * 1024


class PublicationRefused(Exception):
    """A publication the server does not store: the HTTP status and a message naming the reason."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


@dataclass
class Received:
    publication: Publication
    created: bool
    differences: list[str]


def digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def content_digest(content: bytes) -> str:
    """The SHA-256 of every sheet's name and cell values: the same tournament file exported
    twice has the same digest, whatever time the workbook carries."""
    from openpyxl import load_workbook

    try:
        workbook = load_workbook(io.BytesIO(content), read_only=True, data_only=True)
    except Exception as error:  # openpyxl raises many kinds for a file that is not a workbook
        raise PublicationRefused(400, f"file: not a readable XLSX workbook ({error})") from None
    sha = hashlib.sha256()
    try:
        for sheet in workbook.worksheets:
            sha.update(json.dumps(sheet.title).encode())
            for row in sheet.iter_rows(values_only=True):
                sha.update(json.dumps(row, default=str).encode())
    finally:
        workbook.close()
    return sha.hexdigest()


def new_host(league, name: str) -> tuple[Host, str]:
    """A host and its token (shown once; only its digest is kept)."""
    token = secrets.token_urlsafe(32)
    return Host.objects.create(league=league, name=name, token_digest=digest(token)), token


def host_of(token: str | None) -> Host:
    if not token:
        raise PublicationRefused(401, "Authorization: send the host's token as 'Authorization: Token <token>'")
    host = Host.objects.select_related("league").filter(token_digest=digest(token), active=True).first()
    if host is None:
        raise PublicationRefused(401, "Authorization: the token is unknown or withdrawn; ask the league manager")
    return host


def receive(host: Host, content: bytes, match_day_id: int | None = None) -> Received:
    """Store the file once: a new publication, or the one already stored for the same file."""
    if not content:
        raise PublicationRefused(400, "file: empty; send the tournament file (XLSX) as the request body")
    if len(content) > MAX_BYTES:
        raise PublicationRefused(413, f"file: larger than {MAX_BYTES // (1024 * 1024)} MB")
    sha = content_digest(content)
    stored = Publication.objects.filter(host=host, digest=sha).first()
    if stored is not None:
        return Received(stored, False, [])
    try:
        with transaction.atomic():
            Host.objects.select_for_update().filter(pk=host.pk).exists()  # one host's files queue
            stored = Publication.objects.filter(host=host, digest=sha).first()
            if stored is not None:
                return Received(stored, False, [])
            match_day = _match_day(host, match_day_id)
            result = _import(content, list(host.league.managers.all()))
            tournament = result.tournament
            if match_day is not None:
                _attach(match_day, tournament)
            publication = Publication.objects.create(host=host, digest=sha, match_day=match_day, tournament=tournament)
            if match_day is not None:
                LeagueEvent.objects.create(match_day=match_day, kind=LeagueEvent.Kind.PUBLISHED, note=host.name)
            return Received(publication, True, result.differences)
    except IntegrityError:
        # The same file from the same host arrived twice at once: the other request stored it.
        stored = Publication.objects.filter(host=host, digest=sha).first()
        if stored is None:
            raise
        return Received(stored, False, [])


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
    if match_day.host_id not in (None, host.pk):
        raise PublicationRefused(403, f"matchday: match day {match_day.number} is hosted by {match_day.host}")
    if match_day.tournament is not None and match_day.tournament.series.exists():
        raise PublicationRefused(
            409,
            f"matchday: match day {match_day.number} has results already; the league manager corrects them",
        )
    return match_day


def _import(content: bytes, managers):
    with tempfile.NamedTemporaryFile(suffix=".xlsx") as spool:
        spool.write(content)
        spool.flush()
        try:
            return import_tournament(spool.name, directors=managers)
        except TransferError as error:
            raise PublicationRefused(400, f"file: {error}") from None


def _attach(match_day: MatchDay, tournament) -> None:
    """The imported tournament becomes the match day's; its teams must be the match day's."""
    expected = set(match_day.teams.values_list("name", flat=True))
    found = set(tournament.teams.values_list("name", flat=True))
    strangers = sorted(found - expected)
    if strangers:
        raise PublicationRefused(
            400, f"file, Players, Team: {strangers[0]} does not play match day {match_day.number} of {match_day.group}"
        )
    old = match_day.tournament
    match_day.tournament = tournament
    match_day.save(update_fields=["tournament"])
    if old is not None:
        old.delete()  # set up on the server, never played there: the hall's file replaces it
