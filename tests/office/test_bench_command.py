"""`manage.py bench` works end to end on a small tournament (speed is its output, never asserted here)."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.urls import reverse

from perf import bench, fixtures, oracle, pages, report, scratch, timing, xlsx
from scoring.models import Game
from tournaments.models import Tournament

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("scratch_template")]


def run_bench(*args: str) -> tuple[str, CommandError | None]:
    out = io.StringIO()
    try:
        call_command("bench", *args, stdout=out)
    except CommandError as error:  # a small run may miss a ratio target: the table is still printed
        return out.getvalue(), error
    return out.getvalue(), None


def table_rows(out: str, first: str) -> list[str]:
    """The rows of the table whose header starts with ``first``: below the header and its rule, up to a blank line."""
    lines = out.splitlines()
    header = next(i for i, line in enumerate(lines) if line.startswith(first))
    rows = []
    for line in lines[header + 2 :]:
        if not line.strip() or line.startswith("CommandError"):
            break
        rows.append(line)
    return rows


def figure_rows(out: str) -> list[str]:
    return table_rows(out, "figure")


def page_rows(out: str) -> list[str]:
    return table_rows(out, "page ")


def test_a_small_run_prints_every_figure_and_leaves_the_database_alone():
    before = Tournament.objects.count(), Game.objects.count()
    name = connection.settings_dict["NAME"]
    out, error = run_bench("--players", "30", "--series", "2", "--repeat", "1")
    lines = out.splitlines()
    rows = figure_rows(out)
    for figure in bench.FIGURES:
        assert any(row.startswith(figure.name) for row in rows), figure.name
    assert len(rows) == len(bench.FIGURES)
    for row in rows:
        assert any(mark in row for mark in ("pass", "FAIL", "n/a")), row
    if error is not None:
        assert "target(s) missed" in str(error) and "FAIL" in out
    # The scratch database is gone and ours is untouched.
    scratch_line = next(line for line in lines if line.startswith("scratch database: SQLite "))
    assert not Path(scratch_line.removeprefix("scratch database: SQLite ")).exists()
    assert connection.settings_dict["NAME"] == name
    assert (Tournament.objects.count(), Game.objects.count()) == before
    assert "series 2: 8 tables" in out  # 30 players: 6 tables of four, 2 of three
    # Every page answered (none "n/a"), each row with its time, size and queries.
    pages_ = page_rows(out)
    assert [row.split("  ")[0] for row in pages_] == [page.name for page in pages.PAGES]
    for row in pages_:
        # A time in ms, or in s past a second (perf.report.format_value): a loaded machine may take that long.
        assert re.search(r"  (\d+\.\d ms|\d+\.\d\d s)  +\d+\.\d KiB  +\d+  ", row), row
        assert re.search(r"  (pass|FAIL)(  |$)", row), row
    assert "pages at 30 players (server time: the test client in this process)" in out


def test_only_selects_figures_and_bad_arguments_are_refused():
    out, _error = run_bench("--players", "12", "--series", "1", "--repeat", "1", "--only", "draw")
    rows = figure_rows(out)
    assert [row.split("  ")[0] for row in rows] == ["draw a series at random", "draw a series seeded"]
    assert "pages at" not in out  # no page's name has "draw"
    out, _error = run_bench("--players", "12", "--series", "1", "--repeat", "1", "--only", "public standings")
    assert "figure " not in out
    assert [row.split("  ")[0] for row in page_rows(out)] == [
        "public standings",
        "public standings, unchanged refresh",
    ]
    with pytest.raises(CommandError, match="--players must be at least 6"):
        call_command("bench", "--players", "5")


def test_the_built_tournament_is_what_the_engine_says():
    with scratch.scratch_database(log=lambda _line: None):
        tournament = fixtures.build(26, 2, log=lambda _line: None)
        assert tournament.series.count() == 2
        sizes = sorted(t.size for t in tournament.series.get(number=2).tables.all())
        assert sizes == [3, 3, 4, 4, 4, 4, 4]  # 26 = 5 x 4 + 2 x 3
        assert tournament.teams.count() == 3
        # every deal entered, and the stored standings equal the engine's sheets
        from standings.places import standings

        assert Game.objects.count() == 2 * (5 * 48 + 2 * 36)
        assert {row.item.player_id: row.rating for row in standings(tournament)} == oracle.engine_ratings(tournament)


def test_a_result_passes_on_its_absolute_and_its_ratio_target():
    assert timing.Result(0.05, floor=0.03, target=0.1, target_ratio=2.0).ok
    assert not timing.Result(0.07, floor=0.03, target=0.1, target_ratio=2.0).ok  # 2.3x the floor
    assert not timing.Result(0.2, target=0.1).ok
    assert timing.not_available("printing.documents", target=12.0).ok
    table = report.report([("x", timing.Result(0.07, floor=0.03, target=0.1, target_ratio=2.0))])
    assert "70.0 ms" in table and "30.0 ms" in table and "2.33x" in table and "FAIL" in table
    assert "300 MB" in report.report([("m", timing.Result(100 * timing.MB, target=300 * timing.MB, unit="B"))])


def test_a_figure_and_its_floor_are_timed_alternately():
    calls = []
    median, floor = timing.paired_median_times(lambda: calls.append("run"), lambda: calls.append("floor"), 3)
    assert calls == ["run", "floor"] * 4  # a warm-up pair, then three measured pairs
    assert 0 <= median < 1 and 0 <= floor < 1


def test_the_xlsx_floor_writes_every_row_and_peak_memory_is_measured():
    from openpyxl import load_workbook

    out = io.BytesIO()
    xlsx.xlsx_floor(xlsx.synthetic_rows(50), out)
    sheet = load_workbook(io.BytesIO(out.getvalue()), read_only=True)["Games"]
    rows = list(sheet.iter_rows(values_only=True))
    assert len(rows) == 50 and len(rows[0]) == xlsx.XLSX_COLUMNS
    seconds, peak, baseline = timing.peak_memory(lambda: bytearray(64 * timing.MB))
    assert seconds >= 0 and peak >= 64 * timing.MB and peak > baseline


def test_the_pdf_figures_time_whichever_module_has_the_sheets(monkeypatch):
    import types

    calls = []
    fake = types.ModuleType("printing.documents")
    fake.table_sheet_pdf = lambda table, *, filled: calls.append(("table", table.pk, filled)) or b"%PDF"
    fake.series_sheets_pdf = lambda series, *, filled, out: calls.append(("series", series.number, filled))
    monkeypatch.setitem(__import__("sys").modules, "printing.documents", fake)
    with scratch.scratch_database(log=lambda _line: None):
        ctx = bench.Context(tournament=fixtures.build(12, 1, log=lambda _line: None), repeat=1)
        one, series = bench.measure_sheet_pdf(ctx), bench.measure_series_pdf(ctx)
    assert one.available and series.available and one.ok and series.ok
    assert ("series", 1, True) in calls and any(call[0] == "table" and call[2] for call in calls)
    # Twelve players with a club team of four: four tables of three keep the team apart (DOMAIN).
    assert "4 sheets" in series.note


def test_the_start_cards_figure_prints_a_card_for_every_registered_player(monkeypatch):
    import printing.documents as documents

    printed = []
    real = documents.start_cards_pdf

    def recording(tournament, *, absolute_url, out):
        real(tournament, absolute_url=absolute_url, out=out)
        printed.append(out.getvalue())

    monkeypatch.setattr(documents, "start_cards_pdf", recording)
    with scratch.scratch_database(log=lambda _line: None):
        ctx = bench.Context(tournament=fixtures.build(12, 1, log=lambda _line: None), repeat=2)
        result = bench.measure_start_cards(ctx)
    assert result.available and result.target == 3.0 and result.note == "12 cards"
    assert len(printed) == 2 and all(pdf.startswith(b"%PDF") for pdf in printed)


def test_every_page_answers_its_user_and_is_counted_on_a_small_tournament():
    with scratch.scratch_database(log=lambda _line: None):
        site = pages.prepare(fixtures.build(12, 2, log=lambda _line: None), log=lambda _line: None)
        assert site.tournament.standings_public and site.table.size == 4
        assert len(site.season.match_days) == 6 and site.season.league.published
        results = {page.name: pages.measure_page(site, page, repeat=1) for page in pages.PAGES}
    refresh = results.pop("public standings, unchanged refresh")
    for name, result in results.items():
        assert result.available and result.status == 200, (name, result.note)
        assert result.size > 0 and result.queries > 0, name
    assert results["start list PDF"].document and "application/pdf" in results["start list PDF"].note
    # The public standings send an ETag: the unchanged refresh is a bodiless 304.
    assert refresh.status == 304 and refresh.size == 0, refresh.note
    assert refresh.note.startswith("sends back If-")


def test_a_page_that_is_missing_or_refused_is_reported_not_raised():
    broken = pages.Page("nowhere", lambda site: reverse("director:no-such-page"), pages.ANYONE)
    refused = pages.Page("director only", lambda site: reverse("director:detail", args=[site.tid]), pages.ANYONE)
    with scratch.scratch_database(log=lambda _line: None):
        site = pages.prepare(fixtures.build(12, 1, log=lambda _line: None), log=lambda _line: None)
        missing, login = pages.measure_page(site, broken, 1), pages.measure_page(site, refused, 1)
    assert not missing.available and missing.ok and "no such URL name" in missing.note
    assert not login.available and login.status == 302 and "answered 302" in login.note


def test_a_page_passes_within_100_ms_and_250_kib_and_a_document_is_timed_only():
    assert pages.PageResult(0.099, size=250 * 1024).ok
    assert not pages.PageResult(0.101, size=1024).ok
    assert not pages.PageResult(0.010, size=250 * 1024 + 1).ok
    assert pages.PageResult(3.0, size=5_000_000, document=True).ok
    table = report.page_report(
        [
            ("standings", "anyone", pages.PageResult(1.8, size=2_900_000, queries=9)),
            ("gone", "anyone", pages.PageResult(None, note="x")),
        ]
    )
    assert "1.80 s" in table and "2.77 MB" in table and "FAIL" in table and "<= 100 ms, <= 250 KiB" in table
    assert "n/a" in table.splitlines()[-1]
