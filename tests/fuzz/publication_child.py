"""One publication handled in a process of its own, for its memory and CPU time.

``python -m tests.fuzz.publication_child BODY.xlsx`` with ``DATABASE_URL`` naming a
migrated SQLite file: sets Django up, makes a league and a host, imports openpyxl and
sends a refused body (warming up what every request needs), then POSTs the body to ``/league/api/publish/`` with the
host's token and prints JSON: the answer's status and body, the growth of the peak
resident set and the CPU time (user + system) the request took.
tests/fuzz/test_publication_fuzz.py runs it; a process of its own because the peak
resident set of a process never goes down.

The peak is Linux's ``VmHWM``, reset just before the request (``/proc/self/clear_refs``),
not ``ru_maxrss``: that one keeps the peak of the process that started this one (Linux
carries it across exec), so a child of a pytest worker that read a large file would
report no growth at all.
"""

from __future__ import annotations

import json
import os
import re
import resource
import sys
from pathlib import Path


def _memory(field: str) -> int:
    """``VmRSS`` or ``VmHWM`` (the peak) of this process, in bytes."""
    status = Path("/proc/self/status").read_text()
    return int(re.search(rf"^{field}:\s+(\d+) kB", status, re.MULTILINE).group(1)) * 1024


def _cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_SELF)
    return used.ru_utime + used.ru_stime


def main(body_path: str) -> dict:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    import openpyxl.reader.excel  # noqa: F401  (imported, not measured: every worker has it)
    from django.test import Client
    from django.test.utils import setup_test_environment

    from leagues.models import League
    from leagues.publication import new_host

    setup_test_environment()
    league = League.objects.create(name=f"Liga {os.getpid()}", season="2026", lot_seed=1)
    _host, token = new_host(league, "SC Herz Dame")
    client = Client(raise_request_exception=False)  # a 500 is an answer to report
    headers = {"Authorization": f"Token {token}"}
    content_type = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    warm = client.post("/league/api/publish/", b"not a workbook", content_type=content_type, headers=headers)
    assert warm.status_code == 400, warm.content
    body = Path(body_path).read_bytes()
    Path("/proc/self/clear_refs").write_text("5")  # the peak starts again from here
    rss_before, cpu_before = _memory("VmRSS"), _cpu()
    answer = client.post("/league/api/publish/", body, content_type=content_type, headers=headers)
    rss_after, cpu_after = _memory("VmHWM"), _cpu()
    return {
        "status": answer.status_code,
        "answer": answer.json() if answer.headers.get("Content-Type") == "application/json" else None,
        "rss_growth": rss_after - rss_before,
        "cpu": cpu_after - cpu_before,
    }


if __name__ == "__main__":
    print(json.dumps(main(sys.argv[1])))
