"""Hostile bodies for ``POST /league/api/publish/``, sent with a host's token.

Before the guard, leagues.publication opened the body with openpyxl first: a number cell
holding text, a shared string out of range or a cell reference ``$$1`` answered 500, 300 MB
of blanks in a 307 KB body took the worker to 739 MB, a stated dimension ``A1:XFD100000``
with one row at 100000 cost 35 s of CPU, and refusals named the server's temporary file.
Now every body is answered 4xx with a message naming the field (``file: ...``) and the
rule, stores nothing, and costs at most 100 MB and 2 s of CPU, measured in a process of
its own (tests/fuzz/publication_child.py).
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection
from hypothesis import event, given

from leagues.models import LeagueEvent, Publication
from leagues.publication import new_host
from tests import factories, hostile_xlsx
from tests.hostile_xlsx import MB, NS, Repeated, inline, sheet_xml, workbook

from .strategies import FUZZ
from .test_director_forms_fuzz import snapshot
from .test_workbook_fuzz import garbled

pytestmark = pytest.mark.django_db

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
#: What a hostile publication may cost the worker. CPU: openpyxl parses through defusedxml
#: since it is installed, about 1.8 times the plain parser's time per cell. Measured on
#: 2026-12-02 on a 2-core VM here, each body alone: at most 1.12 s of CPU (2 MB of cell
#: formats), the wide row (110,000 cells, parsed whole before the guard's clock is read
#: again) 0.74-0.84 s, about a tenth more beside a busy process. The bound leaves a slower
#: machine room; it is there to catch a body whose cost grows faster than its size.
PEAK_GROWTH = 100 * MB
CPU_SECONDS = 3.0


def _one_cell(cell: str) -> bytes:
    return workbook(sheet_xml(f'<row r="1">{cell}</row>', dimension=None))


def _far_dimension() -> bytes:
    """1.6 KB stating A1:XFD100000 with one row at 100000: read as stated, 1.6 billion cells."""
    rows = f'<row r="1">{inline("A1", "Name")}</row><row r="100000">{inline("A100000", "Zoe")}</row>'
    return workbook(sheet_xml(rows, dimension="A1:XFD100000"))


def _blanks(megabytes: int) -> bytes:
    """A sheet of ``megabytes`` MB of blanks (300: a 307 KB body; 1000: about 1 MB)."""
    head, _sep, tail = sheet_xml().partition("</sheetData>")
    return workbook(Repeated(head.encode(), b" " * MB, megabytes, ("</sheetData>" + tail).encode()))


def _wide_row() -> bytes:
    """Just under the publication's 2 MB of XML, compressed too little to be refused for
    its ratio: one row of 110,000 cells (openpyxl parses a row whole)."""
    cells = "".join(f"<c><v>{i}</v></c>" for i in range(110_000))
    return workbook(
        f'<?xml version="1.0" encoding="UTF-8"?><worksheet {NS}><sheetData><row r="1">{cells}</row>'
        "</sheetData></worksheet>"
    )


def _styles() -> bytes:
    """Just under 2 MB of cell formats (openpyxl parses the styles part whole)."""
    xfs = "".join(f'<xf numFmtId="{i}" fontId="0" fillId="0" borderId="0" xfId="0"/>' for i in range(31_000))
    styles = f'<?xml version="1.0" encoding="UTF-8"?><styleSheet {NS}><cellXfs>{xfs}</cellXfs></styleSheet>'
    return workbook(extra={"xl/styles.xml": styles})


def _many_rows() -> bytes:
    """Just under 2 MB of rows of one number each: 41,000 rows, more than a publication reads."""
    rows = "".join(f'<row r="{i}"><c r="A{i}"><v>{i}</v></c></row>' for i in range(1, 41_001))
    return workbook(f'<?xml version="1.0" encoding="UTF-8"?><worksheet {NS}><sheetData>{rows}</sheetData></worksheet>')


#: The issue's bodies and the largest the publication's limits let through to the parser,
#: with every hostile workbook of tests/hostile_xlsx.py.
BODIES = {
    "text in a number cell": lambda: _one_cell('<c r="A1" t="n"><v>abc</v></c>'),
    "shared string out of range": lambda: _one_cell('<c r="A1" t="s"><v>99</v></c>'),
    "cell reference $$1": lambda: _one_cell('<c r="$$1"><v>1</v></c>'),
    "dimension to row 100000": _far_dimension,
    "300 MB of blanks": lambda: _blanks(300),
    "1,000 MB of blanks": lambda: _blanks(1000),
    "a row of 110,000 cells": _wide_row,
    "2 MB of cell formats": _styles,
    "41,000 rows": _many_rows,
    "not a zip": lambda: b"PK\x03\x04" + b"\x00" * 100,
    **hostile_xlsx.HOSTILE,
}
_built: dict[str, bytes] = {}


def body(case: str) -> bytes:
    if case not in _built:
        _built[case] = BODIES[case]()
    return _built[case]


@pytest.fixture
def host_token():
    _host, token = new_host(factories.league_group()[0], "SC Herz Dame")
    return token


def publish(client, content: bytes, token: str):
    return client.post("/league/api/publish/", content, content_type=XLSX, headers={"Authorization": f"Token {token}"})


def stored() -> tuple:
    return snapshot(), list(Publication.objects.values_list()), list(LeagueEvent.objects.values_list())


def _assert_refused(answer) -> str:
    assert 400 <= answer.status_code < 500, (answer.status_code, answer.content[:300])
    error = answer.json()["error"]
    assert error.startswith("file: ") and len(error) > len("file: ") + 10, error
    assert tempfile.gettempdir() not in error and ".xlsx" not in error, error
    return error


@pytest.mark.parametrize("case", sorted(BODIES))
def test_a_hostile_body_is_refused_naming_the_file_and_stores_nothing(client, host_token, case):
    before = stored()
    _assert_refused(publish(client, body(case), host_token))
    assert stored() == before


@FUZZ
@given(data=garbled())
def test_a_garbled_workbook_is_refused_or_read_never_a_500(client, host_token, data):
    before = stored()
    answer = publish(client, data, host_token)
    event(str(answer.status_code))
    # A garbled part that still reads is no tournament file either (its sheet is not "Tournament"'s).
    _assert_refused(answer)
    assert stored() == before


@pytest.fixture(scope="module")
def migrated(tmp_path_factory, django_db_setup, django_db_blocker) -> str:
    """A migrated SQLite file for the child processes (the test database is this process's).

    On SQLite a copy of this worker's test database, migrated already (SQLite's backup
    API, before any test has written); elsewhere ``migrate`` into a new file, which takes
    as long as the test database's own setup."""
    path = tmp_path_factory.mktemp("publication") / "db.sqlite3"
    with django_db_blocker.unblock():
        if connection.vendor == "sqlite":
            connection.ensure_connection()
            with sqlite3.connect(path) as target:
                connection.connection.backup(target)
            target.close()
            return str(path)
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{path}"}
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=settings.BASE_DIR, env=env, check=True)
    return str(path)


@pytest.mark.parametrize("case", sorted(BODIES))
def test_a_hostile_body_costs_at_most_100_mb_and_2_s(migrated, tmp_path, case):
    path = tmp_path / "body.xlsx"
    path.write_bytes(body(case))
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{migrated}"}
    try:
        done = subprocess.run(
            [sys.executable, "-m", "tests.fuzz.publication_child", str(path)],
            cwd=Path(settings.BASE_DIR),
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"{case}: still reading after 60 s")
    assert done.returncode == 0, done.stderr[-2000:]
    measured = json.loads(done.stdout.strip().splitlines()[-1])
    assert 400 <= measured["status"] < 500, measured
    assert measured["rss_growth"] <= PEAK_GROWTH, f"{case}: {measured['rss_growth'] / MB:.0f} MB"
    assert measured["cpu"] <= CPU_SECONDS, f"{case}: {measured['cpu']:.2f} s"
