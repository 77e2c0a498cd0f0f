"""The hall laptop's side of the publication: post a tournament file to the league server.

Standard library only (urllib): the hall laptop needs nothing more than the office. A
missing connection is no error of the file: :class:`NoConnection` says to try again.
"""

from __future__ import annotations

import io
import json
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass

from core.tabular import XLSX_TYPE
from transfer.exports import league_xlsx


class NoConnection(Exception):
    """The league server did not answer: send again when a connection exists."""


@dataclass
class Answer:
    status: int
    body: dict

    @property
    def stored(self) -> bool:
        return self.status in (200, 201)


def tournament_file(tournament) -> bytes:
    out = io.BytesIO()
    league_xlsx(tournament, out)
    return out.getvalue()


def send(
    content: bytes, url: str, token: str, *, match_day: int | None = None, key: str | None = None, timeout: float = 30
) -> Answer:
    """POST the file to the server's publication endpoint (``.../league/api/publish/``),
    naming the match day by its server id or by its key (the imported package's)."""
    if match_day is not None:
        url = f"{url}{'&' if '?' in url else '?'}{urllib.parse.urlencode({'matchday': match_day})}"
    elif key:
        url = f"{url}{'&' if '?' in url else '?'}{urllib.parse.urlencode({'key': key})}"
    request = urllib.request.Request(
        url, data=content, method="POST", headers={"Authorization": f"Token {token}", "Content-Type": XLSX_TYPE}
    )
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return Answer(response.status, _json(response.read()))
    except urllib.error.HTTPError as error:
        return Answer(error.code, _json(error.read()))
    except (urllib.error.URLError, TimeoutError, ConnectionError) as error:
        reason = getattr(error, "reason", error)
        raise NoConnection(f"no connection to {url} ({reason}); send again when the hall is online") from None


def _json(raw: bytes) -> dict:
    try:
        answer = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        return {"error": f"the server's answer is not JSON: {raw[:200]!r}"}
    return answer if isinstance(answer, dict) else {"error": f"unexpected answer: {answer!r}"}
