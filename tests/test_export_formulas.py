"""No file the office offers runs a formula: every CSV and XLSX export, with hostile names.

A player, club, team, category, tournament, league, group, host, referee and reason named
like a formula (``=HYPERLINK(...)``, ``+1+cmd|...``, ``@SUM(...)``, ``-2+3+...``, a tab or
carriage return first) and then every export the office has: each download URL with
each of its sheets and scopes, and each management command that writes a file. No XLSX
cell may be a formula (data type ``f``) or text starting like one; no CSV field may
start like one unless it is a plain number; the guard's escape (a leading apostrophe)
is the only way such text may appear.

The list is checked both ways, so a new export cannot be left out:

* ``test_every_url_that_answers_with_a_file_is_listed`` opens every named URL of the
  project as a superuser and fails for one answering CSV or XLSX that :data:`EXPORTS`
  does not name (and checks its file too);
* ``test_every_command_is_listed`` fails for a management command of the office that is
  in neither :data:`EXPORT_COMMANDS` nor :data:`OTHER_COMMANDS`;
* ``test_only_the_writer_writes_files`` fails for a module other than
  ``core/tabular.py`` that writes CSV (``csv.writer``) or XLSX (openpyxl's
  ``Workbook``) or names their content types itself.
"""

from __future__ import annotations

import ast
import csv
import datetime
import io
import re
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace

import openpyxl
import pytest
from django.core.management import call_command, get_commands
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.utils.text import slugify

from draw.series import draw_series
from leagues import lineups
from leagues.exports import SHEETS as SEASON_SHEETS
from leagues.publication import new_host
from referees import corrections
from referees.models import Dispute, RefereeAssignment
from tests import factories
from tournaments.models import Category, Club, Registration, Team
from transfer.exports import SHEETS as TOURNAMENT_SHEETS

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parent.parent
#: What a spreadsheet program runs as a formula when a cell starts with it.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
NUMBER = re.compile(r"^-?\d+(?:[.,]\d+)?$")
CSV = "text/csv"
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"

#: The names the world is built with: each comes out (escaped) in some export, but for
#: :data:`UNWRITTEN` (only in file names, which are slugs).
HOSTILE = {
    "tournament": '=HYPERLINK("http://evil.example","t")',
    "venue": "@SUM(1+1)*cmd|' /C calc'!A0",
    "club": "+1+cmd|' /C calc'!A0 club",
    "team": "-2+3+cmd|' /C calc'!A0",
    "category": "=1+1 category",
    "league": '=HYPERLINK("http://evil.example","league")',
    "group": '=HYPERLINK("http://evil.example","x")',
    "league team": "+1+cmd|' /C calc'!A0",
    "league team 2": "@SUM(1+1)*cmd|' /C calc'!A0",
    "league team 3": "-2+3+cmd|' /C calc'!A0 B",
    "host": "=cmd|' /C calc'!A0 host",
    "referee": "@referee",
    "reason": "+49 30 1234 reason",
    "membership": "-2+9",
}

UNWRITTEN = {"category", "league"}


def player_name(i: int) -> str:
    """Every start in turn: the tab and the carriage return too (from a file, not a form)."""
    return f"{FORMULA_STARTS[i % len(FORMULA_STARTS)]}{i}+cmd|' /C calc'!A0"


@pytest.fixture
def world() -> SimpleNamespace:
    """A played tournament and a played league season, every name hostile."""
    root = factories.user("root", superuser=True)
    t = factories.tournament(name=HOSTILE["tournament"], venue=HOSTILE["venue"], standings_public=True)
    t.rounds_per_series = 1
    t.save(update_fields=["rounds_per_series"])
    club = Club.objects.create(name=HOSTILE["club"])
    team = Team.objects.create(tournament=t, name=HOSTILE["team"])
    category = Category.objects.create(tournament=t, name=HOSTILE["category"])
    registrations = []
    for i in range(8):
        player = factories.player(player_name(i), membership_number=f"{HOSTILE['membership']}{i}")
        player.club = club
        player.save(update_fields=["club"])
        registrations.append(
            Registration.objects.create(tournament=t, player=player, team=team if i < 4 else None, category=category)
        )
    series = draw_series(t)
    factories.play_series(series, HOSTILE["team"])
    table = series.tables.order_by("number").first()
    referee = factories.user(HOSTILE["referee"])
    assignment = RefereeAssignment.objects.create(tournament=t, user=referee)
    dispute = Dispute.objects.create(table=table, description="=1+1", raised_by="=A1")
    game = table.games.order_by("number").first()
    corrections.void_game(game.pk, expected_version=1, user=referee, reason=HOSTILE["reason"])

    league, group, teams = factories.league_group(
        teams=3, roster=5, managers=[root], name=HOSTILE["league"], series_per_matchday=1, rounds_per_series=1
    )
    group.name = HOSTILE["group"]
    group.save(update_fields=["name"])
    for league_team, key in zip(teams, ["league team", "league team 2", "league team 3"], strict=True):
        league_team.name = HOSTILE[key]
        league_team.save(update_fields=["name"])
    host, _token = new_host(league, HOSTILE["host"])
    day = lineups.create_match_day(group, number=1, date=datetime.date(2026, 9, 5), teams=teams, host=host)
    for league_team in teams:
        lineups.set_line_up(day, league_team, [e.player for e in league_team.roster.filter(position__lte=4)])
    factories.play_series(draw_series(day.tournament))

    # A published ranking of the tournament (rankings/): its files hold the players' names.
    from rankings.models import Ranking
    from rankings.services import add_tournament

    ranking = Ranking.objects.create(name=HOSTILE["league"], season="2027", public=True)
    ranking.directors.add(root)
    ranking_entry = add_tournament(ranking, t, root).entry

    client = Client()
    client.force_login(root)
    return SimpleNamespace(
        client=client,
        t=t,
        table=table,
        registration=registrations[0],
        category=category,
        referee=referee,
        assignment=assignment,
        dispute=dispute,
        game=game,
        league=league,
        group=group,
        team=teams[0],
        host=host,
        day=day,
        ranking=ranking,
        ranking_entry=ranking_entry,
    )


# --- every export: URL name -> its variants (URL kwargs beyond the world's, query) -----------

Variants = Callable[[SimpleNamespace], list[tuple[dict, dict]]]

EXPORTS: dict[str, Variants] = {
    "director:export_xlsx": lambda w: [({}, {}), ({}, {"category": w.category.pk})],
    "director:export_csv": lambda w: (
        [({"sheet": sheet}, {}) for sheet in TOURNAMENT_SHEETS] + [({"sheet": "Ranking"}, {"category": w.category.pk})]
    ),
    "public:standings_csv": lambda w: [
        ({}, {}),
        ({}, {"category": w.category.pk}),
        ({}, {"view": "teams"}),
        ({}, {"series": 1}),
    ],
    "referees:corrections_csv": lambda w: [({}, {})],
    "leagues:season_xlsx": lambda w: [({}, {})],
    "rankings:file": lambda w: [({"kind": "csv"}, {}), ({"kind": "xlsx"}, {})],
    "public:ranking_file": lambda w: [({"kind": "csv"}, {}), ({"kind": "xlsx"}, {})],
    "leagues:season_csv": lambda w: [({"sheet": slugify(sheet)}, {}) for sheet in SEASON_SHEETS],
    "seasons:players_file": lambda w: [({"kind": "csv"}, {}), ({"kind": "xlsx"}, {})],
    "public:league_players_file": lambda w: [({"kind": "csv"}, {}), ({"kind": "xlsx"}, {})],
}


def url_kwargs(w: SimpleNamespace) -> dict[str, object]:
    """Every URL parameter of the project, filled from the world."""
    return {
        "tournament_id": w.t.pk,
        "number": 1,
        "table": w.table.number,
        "table_number": w.table.number,
        "table_id": w.table.pk,
        "token": w.table.token,
        "player_id": w.registration.player_id,
        "registration_id": w.registration.pk,
        "user_id": w.referee.pk,
        "assignment_id": w.assignment.pk,
        "dispute_id": w.dispute.pk,
        "game_id": w.game.pk,
        "flag": "paid",
        "league_id": w.league.pk,
        "group_id": w.group.pk,
        "team_id": w.team.pk,
        "match_day_id": w.day.pk,
        "host_id": w.host.pk,
        "publication_id": 1,  # removing a publication is a POST without a file
        "ranking_id": w.ranking.pk,
        "entry_id": w.ranking_entry.pk,
        "decision_id": 1,  # undoing a decision is a POST
        "deduction_id": 1,  # withdrawing a deduction or a forfeit is a POST
        "forfeit_id": 1,
        "kind": "pdf",  # a ranking's file: CSV and XLSX are the variants in EXPORTS
        "sheet": "Ranking",
        "app": "scoring",  # the sign-off's old admin addresses: a redirect, no file
        "model": "signoff",
        "rest": "",
        "path": "",  # the help pages (config/help.py): their index
        "code": "de",  # the language switch (config/language.py): a redirect, no file
    }


def patterns(resolver: URLResolver | None = None, namespace: str = "") -> list[tuple[str, URLPattern]]:
    """(full name, pattern) of every named URL of the office (Django's admin apart)."""
    found = []
    for pattern in (resolver or get_resolver()).url_patterns:
        if isinstance(pattern, URLResolver):
            if pattern.namespace == "admin":
                continue
            found += patterns(pattern, f"{namespace}{pattern.namespace}:" if pattern.namespace else namespace)
        elif pattern.name:
            found.append((f"{namespace}{pattern.name}", pattern))
    return found


# --- the checks ----------------------------------------------------------------------------


def formula_like(value: object) -> bool:
    return isinstance(value, str) and value.startswith(FORMULA_STARTS) and not NUMBER.match(value)


def xlsx_problems(content: bytes) -> tuple[list[str], str]:
    """The formula cells of a workbook, and all its text (to find the escaped names in)."""
    book = openpyxl.load_workbook(io.BytesIO(content))
    problems, texts = [], []
    for sheet in book.worksheets:
        for row in sheet.iter_rows():
            for cell in row:
                if cell.data_type == "f" or formula_like(cell.value):
                    problems.append(f"{sheet.title}!{cell.coordinate}: {cell.value!r}")
                if isinstance(cell.value, str):
                    texts.append(cell.value)
    return problems, "\n".join(texts)


def csv_problems(content: bytes) -> tuple[list[str], str]:
    text = content.decode("utf-8-sig")
    problems, texts = [], []
    for number, row in enumerate(csv.reader(io.StringIO(text, newline=""), delimiter=";"), start=1):
        for field in row:
            if formula_like(field):
                problems.append(f"row {number}: {field!r}")
            texts.append(field)
    return problems, "\n".join(texts)


def file_problems(content_type: str, content: bytes) -> tuple[list[str], str]:
    return xlsx_problems(content) if content_type.startswith(XLSX) else csv_problems(content)


def is_file(content_type: str) -> bool:
    return content_type.startswith((CSV, XLSX))


def body(response) -> bytes:
    return b"".join(response.streaming_content) if response.streaming else response.content


def test_no_export_writes_a_formula(world, tmp_path, monkeypatch):
    """Every URL of :data:`EXPORTS` in every variant, and every command's file: no formula,
    and every hostile name comes out somewhere (escaped), so nothing was left out unseen."""
    problems, seen = {}, []
    base = url_kwargs(world)
    for name, variants in EXPORTS.items():
        pattern = dict(patterns())[name]
        for extra, query in variants(world):
            kwargs = {key: base[key] for key in pattern.pattern.regex.groupindex} | extra
            response = world.client.get(reverse(name, kwargs=kwargs), query)
            where = f"{name} {extra} {query}"
            assert response.status_code == 200, where
            assert is_file(response["Content-Type"]), (where, response["Content-Type"])
            found, text = file_problems(response["Content-Type"], body(response))
            problems[where], seen = found, [*seen, text]
    for command, output in EXPORT_COMMANDS.items():
        found, text = xlsx_problems(output(world, tmp_path, monkeypatch))
        problems[f"manage.py {command}"], seen = found, [*seen, text]
    assert {where: found for where, found in problems.items() if found} == {}
    everything = "\n".join(seen)
    missing = [key for key, value in HOSTILE.items() if "'" + value not in everything and key not in UNWRITTEN]
    missing += [name for name in map(player_name, range(8)) if "'" + name not in everything]
    assert missing == [], f"hostile names no export wrote (escaped): {missing}"


def test_every_url_that_answers_with_a_file_is_listed(world):
    """Every named URL, opened by a superuser: one answering CSV or XLSX must be in :data:`EXPORTS`."""
    base = url_kwargs(world)
    files = {}
    for name, pattern in patterns():
        unknown = set(pattern.pattern.regex.groupindex) - set(base)
        assert not unknown, f"{name}: teach url_kwargs() the parameters {unknown}"
        kwargs = {key: base[key] for key in pattern.pattern.regex.groupindex}
        if name in EXPORTS:  # its first variant (a sheet the URL has)
            kwargs |= EXPORTS[name](world)[0][0]
        response = world.client.get(reverse(name, kwargs=kwargs))
        if is_file(response.get("Content-Type", "")):
            files[name] = file_problems(response["Content-Type"], body(response))[0]
    assert sorted(set(files) - set(EXPORTS)) == [], "new exports: list them in EXPORTS with their variants"
    assert {name: found for name, found in files.items() if found} == {}
    assert set(EXPORTS) <= set(files), "an export in EXPORTS that no longer answers with a file"


# --- management commands ---------------------------------------------------------------------


def exported_tournament(w, tmp_path, monkeypatch) -> bytes:
    path = tmp_path / "t.xlsx"
    call_command("export_tournament", w.t.pk, str(path), stdout=io.StringIO())
    return path.read_bytes()


def published_tournament(w, tmp_path, monkeypatch) -> bytes:
    """What ``publish_tournament`` sends (the network answered by a stand-in)."""
    from leagues.management.commands import publish_tournament
    from leagues.sending import Answer

    sent = []

    def send(content: bytes, url: str, token: str, **options) -> Answer:
        sent.append(content)
        return Answer(201, {})

    monkeypatch.setattr(publish_tournament, "send", send)
    call_command("publish_tournament", w.t.pk, "http://127.0.0.1:9/", token="x", stdout=io.StringIO())
    return sent[0]


#: Commands that write a CSV or XLSX file: name -> the file they write.
EXPORT_COMMANDS: dict[str, Callable[..., bytes]] = {
    "export_tournament": exported_tournament,
    "publish_tournament": published_tournament,
}
#: Commands that write no CSV or XLSX (bench measures the league workbook into memory only).
OTHER_COMMANDS = {
    "compiletranslations",
    "unlocklogin",
    "evaluate",
    "import_sheet",
    "import_tournament",
    "league_host",
    "rollover_season",
    "import_matchday",
    "rehearse",
    "bench",
    "demo",
    "loadtest",
    "powercut",
    "serve",
    "backup",
    "restore",
}
from tests.test_layers import PACKAGES  # noqa: E402 - every package of the office, in one place

OFFICE_APPS = set(PACKAGES)


def test_every_command_is_listed():
    ours = {name for name, app in get_commands().items() if app.split(".")[0] in OFFICE_APPS}
    assert sorted(ours - set(EXPORT_COMMANDS) - OTHER_COMMANDS) == [], "list the new command here"


# --- one writer --------------------------------------------------------------------------------

WRITER = "core/tabular.py"
CONTENT_TYPES = re.compile(r"text/csv|spreadsheetml\.sheet")
#: The bench's floor: bare openpyxl on made-up rows, the yardstick the writer is measured by.
FLOOR = "perf/xlsx.py"


def file_writing(source: str) -> list[str]:
    """What in ``source`` writes CSV or XLSX without the writer."""
    writers = {"csv": {"writer", "DictWriter"}, "openpyxl": {"Workbook", "WriteOnlyCell"}}
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            if node.attr in writers.get(node.value.id, ()):
                found.append(f"line {node.lineno}: {node.value.id}.{node.attr}")
        elif isinstance(node, ast.ImportFrom):
            names = {alias.name for alias in node.names} & writers.get((node.module or "").split(".")[0], set())
            found += [f"line {node.lineno}: from {node.module} import {name}" for name in sorted(names)]
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and CONTENT_TYPES.search(node.value):
            found.append(f"line {node.lineno}: the content type {node.value!r}")
    return found


def test_only_the_writer_writes_files():
    found = {}
    for package in OFFICE_APPS:
        for path in sorted((ROOT / package).rglob("*.py")):
            where = path.relative_to(ROOT).as_posix()
            if where not in {WRITER, FLOOR} and (lines := file_writing(path.read_text(encoding="utf-8"))):
                found[where] = lines
    assert found == {}, "write CSV and XLSX through core.tabular (the formula guard)"
    assert file_writing((ROOT / WRITER).read_text(encoding="utf-8")), "the writer moved: update WRITER"
