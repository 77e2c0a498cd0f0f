"""`manage.py bench` works end to end on a small tournament (speed is its output, never asserted here)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from office.perf import bench, fixtures, oracle, report, scratch, timing, xlsx
from scoring.models import Game
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def run_bench(*args: str) -> tuple[str, CommandError | None]:
    out = io.StringIO()
    try:
        call_command("bench", *args, stdout=out)
    except CommandError as error:  # a small run may miss a ratio target: the table is still printed
        return out.getvalue(), error
    return out.getvalue(), None


def figure_rows(out: str) -> list[str]:
    """The table's rows: everything below the header and its rule."""
    lines = out.splitlines()
    header = next(i for i, line in enumerate(lines) if line.startswith("figure"))
    return lines[header + 2 :]


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


def test_only_selects_figures_and_bad_arguments_are_refused():
    out, _error = run_bench("--players", "12", "--series", "1", "--repeat", "1", "--only", "draw")
    rows = figure_rows(out)
    assert [row.split("  ")[0] for row in rows] == ["draw a series at random", "draw a series seeded"]
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
        from scoring.standings import standings

        assert Game.objects.count() == 2 * (5 * 48 + 2 * 36)
        assert {row.item.player_id: row.rating for row in standings(tournament)} == oracle.engine_ratings(tournament)


def test_a_result_passes_on_its_absolute_and_its_ratio_target():
    assert timing.Result(0.05, floor=0.03, target=0.1, target_ratio=2.0).ok
    assert not timing.Result(0.07, floor=0.03, target=0.1, target_ratio=2.0).ok  # 2.3x the floor
    assert not timing.Result(0.2, target=0.1).ok
    assert timing.not_available("scoring.pdf", target=12.0).ok
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
    fake = types.ModuleType("scoring.documents")
    fake.table_sheet_pdf = lambda table, *, filled: calls.append(("table", table.pk, filled)) or b"%PDF"
    fake.series_sheets_pdf = lambda series, *, filled, out: calls.append(("series", series.number, filled))
    monkeypatch.setitem(__import__("sys").modules, "scoring.documents", fake)
    with scratch.scratch_database(log=lambda _line: None):
        ctx = bench.Context(tournament=fixtures.build(12, 1, log=lambda _line: None), repeat=1)
        one, series = bench.measure_sheet_pdf(ctx), bench.measure_series_pdf(ctx)
    assert one.available and series.available and one.ok and series.ok
    assert ("series", 1, True) in calls and any(call[0] == "table" and call[2] for call in calls)
    assert "3 sheets" in series.note
