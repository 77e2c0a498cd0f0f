"""``python -m office.healthcheck``: the container's health check, asking this office's ``/healthz``.

The slim image has no curl, and the check runs every half minute: so Python's own
urllib, without Django, against ``http://127.0.0.1:$PORT/healthz`` (config.health) with
a short timeout. Exit 0 when it answers 200, 1 otherwise, with one line saying what it
got: Docker keeps the last lines (``docker inspect``), compose shows the state.
"""

from __future__ import annotations

import http.client
import os
import sys
import urllib.error
import urllib.parse
import urllib.request

#: Seconds the office has to answer: /healthz is one query and one cache round trip.
TIMEOUT_SECONDS = 5.0


def url(environ: dict[str, str] | os._Environ[str] = os.environ) -> str:
    """The office's own /healthz on loopback: the port it serves on (``PORT``, 8000)."""
    port = environ.get("PORT", "").strip() or "8000"
    return f"http://127.0.0.1:{port}/healthz"


def check(address: str, timeout: float = TIMEOUT_SECONDS) -> tuple[bool, str]:
    """Whether the office at ``address`` is healthy, and the line that says so."""
    # Only this machine is asked: PORT=80@example.org would make the address another host's.
    try:
        host = urllib.parse.urlsplit(address).hostname
    except ValueError:
        host = None
    if host != "127.0.0.1":
        return False, f"not asked: {address} is not on this machine's loopback (PORT must be a port number)"
    try:
        with urllib.request.urlopen(address, timeout=timeout) as answer:
            body = answer.read(512).decode("utf-8", "replace").strip()
            return answer.status == 200, f"{answer.status} {body}"
    except urllib.error.HTTPError as error:  # 503: the body names the part that failed
        body = error.read(512).decode("utf-8", "replace").strip()
        return False, f"{error.code} {body}"
    except (OSError, ValueError, http.client.HTTPException) as error:  # refused, timed out, cut off, no port
        return False, f"no answer from {address}: {getattr(error, 'reason', error)}"


def main() -> int:
    healthy, line = check(url())
    print(line)
    return 0 if healthy else 1


if __name__ == "__main__":  # pragma: no cover - python -m office.healthcheck
    sys.exit(main())
