"""The benchmark behind ``manage.py bench``: a synthetic tournament and timed figures.

Every figure is the median of repeated runs and is printed beside its floor (the
cheapest way the database or library could do the same work) and its target, so a
regression shows as a ratio, not as a feeling. Targets are for the project's 2-core
reference machine (README, BENCHMARKS).

The tournament lives in a throwaway database (:func:`scratch_database`): a temporary
SQLite file, or a scratch database created and dropped on a PostgreSQL server. The
user's own database is never touched.

A figure is one entry of :data:`FIGURES`: a name and a function of the
:class:`Context` that returns a :class:`Result`. Adding one is a few lines.
"""

from __future__ import annotations

import datetime
import io
import os
import random
import statistics
import tempfile
import time
import uuid
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from django.db import connection, connections
from django.test import Client
from django.test.utils import override_settings

from office.demo import random_game
from scoring.models import Game
from scoring.rating import Rating
from scoring.sheet import evaluate_sheet
from scoring.standings import standings
from tournaments.draw import Entrant, draw
from tournaments.models import Club, Player, Registration, Series, Team, Tournament
from tournaments.series import draw_series, previous_meetings

Log = Callable[[str], None]

MS = 1e-3
MB = 1024 * 1024


# --- results -------------------------------------------------------------------------------


@dataclass
class Result:
    """One measured figure. Times in seconds, memory in bytes."""

    median: float | None
    floor: float | None = None
    target: float | None = None  # absolute
    target_ratio: float | None = None  # against the floor
    unit: str = "s"  # "s" or "B"
    note: str = ""
    available: bool = True

    @property
    def ratio(self) -> float | None:
        if self.median is None or not self.floor:
            return None
        return self.median / self.floor

    @property
    def ok(self) -> bool:
        if not self.available or self.median is None:
            return True
        if self.target is not None and self.median > self.target:
            return False
        return not (self.target_ratio is not None and self.ratio is not None and self.ratio > self.target_ratio)


def not_available(module: str, **targets) -> Result:
    """The row of a figure whose module is not installed yet: its target, no measurement."""
    return Result(None, available=False, note=f"not available ({module} is missing)", **targets)


@dataclass
class Context:
    """What every figure may use: the built tournament and the run's settings."""

    tournament: Tournament
    repeat: int
    log: Log = print
    cache: dict = field(default_factory=dict)

    @property
    def vendor(self) -> str:
        return connection.vendor


@dataclass(frozen=True)
class FigureDef:
    name: str
    measure: Callable[[Context], Result]


def median_time(run: Callable[[], object], repeat: int, *, warm: bool = True) -> float:
    """The median wall time of ``repeat`` calls (after one unmeasured warm-up call)."""
    if warm:
        run()
    times = []
    for _ in range(max(1, repeat)):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def paired_median_times(run: Callable[[], object], floor: Callable[[], object], repeat: int) -> tuple[float, float]:
    """Median wall times of ``run`` and ``floor``, called alternately ``repeat`` times each (after a warm-up)."""
    run()
    floor()
    times: tuple[list[float], list[float]] = ([], [])
    for _ in range(max(1, repeat)):
        for call, into in ((run, times[0]), (floor, times[1])):
            start = time.perf_counter()
            call()
            into.append(time.perf_counter() - start)
    return statistics.median(times[0]), statistics.median(times[1])


# --- the throwaway database ------------------------------------------------------------------


@dataclass(frozen=True)
class Scratch:
    """The throwaway database: a description for the report and a DATABASE_URL for a server process."""

    description: str
    url: str
    vendor: str


@contextmanager
def scratch_database(url: str | None = None, log: Log = print, prefix: str = "bench") -> Iterator[Scratch]:
    """Point the ``default`` connection at a throwaway database for the block, then restore it.

    ``url`` None or ``"sqlite"``: a temporary SQLite file with the office's own SQLite
    options (WAL, IMMEDIATE transactions). A ``postgres://user@host:port/`` URL: a
    database ``<prefix>_<pid>`` created on that server and dropped afterwards. Yields a
    :class:`Scratch`. Migrations run first.
    """
    import dj_database_url
    from django.core.management import call_command

    original_settings = connections.settings["default"]
    original_connection = connections["default"]
    cleanup: Callable[[], None]
    if url in (None, "", "sqlite"):
        directory = Path(tempfile.mkdtemp(prefix="skat-bench-"))
        path = directory / "bench.sqlite3"
        if original_settings["ENGINE"] == "django.db.backends.sqlite3":
            config = dict(original_settings, NAME=str(path))
        else:
            config = dj_database_url.parse(f"sqlite:///{path}")
            config["OPTIONS"] = {
                "transaction_mode": "IMMEDIATE",
                "timeout": 20,
                "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON;",
            }
        config["CONN_MAX_AGE"] = 0
        scratch = Scratch(f"SQLite {path}", f"sqlite:///{path}", "sqlite")

        def cleanup() -> None:
            for child in directory.iterdir():
                child.unlink()
            directory.rmdir()

    else:
        config = dj_database_url.parse(url)
        if "postgresql" not in config["ENGINE"]:
            raise ValueError(f"--database: give sqlite or a postgres:// URL, not {url!r}")
        name = f"{prefix}_{os.getpid()}"
        admin = dict(config, NAME=config.get("NAME") or "postgres")
        _postgres_admin(admin, f'DROP DATABASE IF EXISTS "{name}"', f'CREATE DATABASE "{name}"')
        config["NAME"] = name
        parts = urlsplit(url)
        scratch = Scratch(
            f"PostgreSQL {config.get('HOST') or 'localhost'}:{config.get('PORT') or 5432}/{name}",
            urlunsplit((parts.scheme, parts.netloc, f"/{name}", parts.query, "")),
            "postgresql",
        )

        def cleanup() -> None:
            _postgres_admin(admin, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    config = connections.configure_settings({"default": config})["default"]
    connections.settings["default"] = config
    connections["default"] = connections.create_connection("default")
    try:
        log(f"scratch database: {scratch.description}")
        call_command("migrate", verbosity=0, interactive=False)
        yield scratch
    finally:
        connections["default"].close()
        connections.settings["default"] = original_settings
        connections["default"] = original_connection
        cleanup()


def _postgres_admin(config: dict, *statements: str) -> None:
    import psycopg

    with psycopg.connect(
        dbname=config["NAME"],
        user=config.get("USER") or None,
        password=config.get("PASSWORD") or None,
        host=config.get("HOST") or None,
        port=config.get("PORT") or None,
        autocommit=True,
    ) as conn:
        for statement in statements:
            conn.execute(statement)


# --- the synthetic tournament -------------------------------------------------------------------


def build(players: int, series: int, seed: int = 1, log: Log = print) -> Tournament:
    """A finished tournament: ``players`` registered, ``series`` series drawn, every deal entered.

    Clubs of 15, half the players in club teams of four (team-mates are never drawn
    together), later series seeded by the standings with earlier meetings kept apart,
    just as a director draws them. When every series would seat only tables of four, one
    player withdraws after series 1 so the later series have tables of three too.
    Games are random but valid, each valued by the rules engine, and bulk-inserted.
    """
    rng = random.Random(seed)
    started = time.perf_counter()
    tournament = Tournament.objects.create(
        name=f"Bench {players}", date=datetime.date(2026, 11, 23), series_count=series, lot_seed=seed
    )
    clubs = Club.objects.bulk_create([Club(name=f"Bench club {i:03d}") for i in range(max(1, players // 15))])
    people = Player.objects.bulk_create(
        [Player(name=f"Player {i:04d}", club=clubs[i % len(clubs)]) for i in range(players)], batch_size=1000
    )
    teams = Team.objects.bulk_create(
        [Team(tournament=tournament, name=f"Team {i:03d}") for i in range(players // 8)], batch_size=1000
    )
    # Team i: four players of one club (players i, i + c, i + 2c, i + 3c share club i mod c).
    team_of: dict[int, Team] = {}
    for i, team in enumerate(teams):
        base = (i // len(clubs)) * 4 * len(clubs) + i % len(clubs)
        for k in range(4):
            index = base + k * len(clubs)
            if index < players:
                team_of[index] = team
    withdraw = series > 1 and players % 4 == 0 and players > 8
    Registration.objects.bulk_create(
        [
            Registration(
                tournament=tournament,
                player=p,
                team=team_of.get(i),
                withdrawn_after_series=1 if withdraw and i == players - 1 else None,
            )
            for i, p in enumerate(people)
        ],
        batch_size=1000,
    )
    log(f"  {players} players, {len(clubs)} clubs, {len(teams)} teams: {time.perf_counter() - started:.1f} s")
    for number in range(1, series + 1):
        started = time.perf_counter()
        drawn = draw_series(tournament, Series.Method.SEEDED if number > 1 else Series.Method.RANDOM)
        drew = time.perf_counter() - started
        games = []
        for table in drawn.tables.all():
            for deal in range(1, tournament.deals_per_table(table.size) + 1):
                game = random_game(rng, deal, table.size)
                game.table = table
                game.entered_by = "bench"
                games.append(game)
        Game.objects.bulk_create(games, batch_size=2000)
        drawn.status = Series.Status.FINISHED
        drawn.save(update_fields=["status"])
        log(
            f"  series {number}: {drawn.tables.count()} tables, {len(games)} games"
            f" (draw {drew:.1f} s, all {time.perf_counter() - started:.1f} s)"
        )
    # Fresh statistics, as a database that has been running a while has them (VACUUM
    # also lets PostgreSQL answer from the covering index alone; not inside a transaction).
    vacuum = connection.vendor == "postgresql" and not connection.in_atomic_block
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE" if vacuum else "ANALYZE")
    return tournament


# --- the engine oracle ----------------------------------------------------------------------------


def sheet_of(table, games: Iterable[Game]) -> dict:
    """A table's stored games as the plain scoresheet :func:`scoring.sheet.evaluate_sheet` reads.

    Only the fields the scorekeeper entered go in; the engine values them afresh.
    """
    names = [str(seat.player_id) for seat in sorted(table.seats.all(), key=lambda s: s.number)]
    lines = []
    for game in games:
        if game.passed_out:
            lines.append({"passed": True})
            continue
        line = {"declarer": names[game.declarer_seat - 1], "contract": game.contract}
        for key in ("hand", "schneider_announced", "schwarz_announced", "ouvert"):
            line[key] = getattr(game, key)
        for key in ("tops", "declarer_points", "declarer_tricks", "bid"):
            if getattr(game, key) is not None:
                line[key] = getattr(game, key)
        lines.append(line)
    return {"players": names, "games": lines}


def engine_ratings(tournament: Tournament) -> dict[int, Rating]:
    """Every player's rating recomputed table by table from the entered fields alone.

    The independent check of :func:`scoring.standings.standings`: it reads no stored
    value or score, only what was entered, through the sheet evaluator and the engine.
    """
    from tournaments.models import Table

    games_by_table: dict[int, list[Game]] = defaultdict(list)
    for game in Game.objects.filter(table__series__tournament=tournament).order_by("table_id", "number"):
        games_by_table[game.table_id].append(game)
    totals: dict[int, Rating] = defaultdict(Rating)
    for table in Table.objects.filter(series__tournament=tournament).prefetch_related("seats"):
        sheet = sheet_of(table, games_by_table.get(table.pk, []))
        result = evaluate_sheet(sheet)
        for name, rating in zip(sheet["players"], result.ratings, strict=True):
            totals[int(name)] = totals[int(name)] + rating
    return dict(totals)


def entry_data(game: Game) -> dict[str, str]:
    """The POST fields of the table form that enter ``game`` (as a phone sends them)."""
    data: dict[str, str] = {"number": str(game.number), "client_id": str(uuid.uuid4())}
    for name in Game.ENTERED_FIELDS:
        value = getattr(game, name)
        if value is None or value is False or value == "":
            continue
        data[name] = "on" if value is True else str(value)
    return data


# --- the figures ------------------------------------------------------------------------------------

FLOOR_SQL = (
    "SELECT table_id, declarer_seat, COUNT(*), SUM(score), "
    "COUNT(*) FILTER (WHERE won), COUNT(*) FILTER (WHERE lost) "
    "FROM scoring_game GROUP BY table_id, declarer_seat"
)


def measure_standings(ctx: Context) -> Result:
    """Overall standings of every player against one bare GROUP BY over the games.

    The standings themselves read the seat totals the database triggers keep
    (scoring.models.SeatTotal), not the games; the floor is the GROUP BY they replace.

    Both are quick (tens of milliseconds), so each is run at least 21 times, the two
    alternating: a busy moment of the machine then slows both, not just one, and the
    ratio stays fair.
    """
    tournament = ctx.tournament

    def floor() -> None:
        with connection.cursor() as cursor:
            cursor.execute(FLOOR_SQL)
            cursor.fetchall()

    rows = standings(tournament)
    median, floor_median = paired_median_times(lambda: standings(tournament), floor, max(ctx.repeat, 21))
    return Result(
        median,
        floor=floor_median,
        target=0.100 if ctx.vendor == "sqlite" else None,
        target_ratio=2.0,
        note=f"{len(rows)} players, {Game.objects.count()} games; floor: bare GROUP BY (read: the seat totals)",
    )


def measure_entry(ctx: Context) -> Result:
    """One deal through the table link: a full htmx POST as the phone sends it.

    Tables of the last series are re-opened (their games deleted, untimed) so each
    request enters the table's next deal; the response is the re-rendered sheet and form.
    Every table is entered to its last deal, so the median covers short and full sheets
    alike (the re-rendered sheet grows with every deal).
    """
    tournament = ctx.tournament
    series = tournament.series.order_by("-number").first()
    count = max(ctx.repeat * 4, 20)
    tables = list(series.tables.order_by("number")[: count // 36 + 1])
    Game.objects.filter(table__in=tables).delete()
    Series.objects.filter(pk=series.pk).update(status=Series.Status.RUNNING)
    rng = random.Random(7)
    with override_settings(ALLOWED_HOSTS=["testserver"], SECURE_SSL_REDIRECT=False):
        client = Client()
        times = []
        for table in tables:
            url = table.entry_url()
            client.get(url)
            for deal in range(1, tournament.deals_per_table(table.size) + 1):
                data = entry_data(random_game(rng, deal, table.size))
                start = time.perf_counter()
                response = client.post(url, data, HTTP_HX_REQUEST="true")
                times.append(time.perf_counter() - start)
                if response.status_code != 200 or b"entered" not in response.content:
                    raise RuntimeError(f"entry refused ({response.status_code}): {response.content[:400]!r}")
    Series.objects.filter(pk=series.pk).update(status=Series.Status.FINISHED)
    return Result(
        statistics.median(times),
        target=0.025,
        note=f"{len(times)} deals, test client, htmx POST + sheet re-rendered",
    )


def _draw_input(ctx: Context) -> tuple[list[Entrant], list[tuple[int, int]], list[int]]:
    if "draw" not in ctx.cache:
        tournament = ctx.tournament
        registrations = Registration.objects.filter(tournament=tournament).select_related("player")
        entrants = [Entrant(r.player_id, club=r.player.club_id, team=r.team_id) for r in registrations]
        ranking = [row.item.player_id for row in standings(tournament)]
        ranked = set(ranking)
        ranking += [e.id for e in entrants if e.id not in ranked]
        ctx.cache["draw"] = (entrants, previous_meetings(tournament), ranking)
    return ctx.cache["draw"]


def measure_draw(seeded: bool) -> Callable[[Context], Result]:
    def measure(ctx: Context) -> Result:
        entrants, met, ranking = _draw_input(ctx)
        results = []

        def run() -> None:
            results.append(draw(entrants, seed=len(results) + 1, met=met, ranking=ranking if seeded else None))

        median = median_time(run, ctx.repeat, warm=False)
        last = results[-1]
        return Result(
            median,
            target=2.0,
            note=(
                f"{len(entrants)} players, {len(met)} earlier meetings; left: {last.repeat_meetings} repeat,"
                f" {last.club_meetings} club, {last.team_meetings} team"
            ),
        )

    return measure


#: Where the scoresheet PDFs may live: the first module that exists is used.
PDF_MODULES = ("scoring.pdf", "scoring.documents")


def _pdf_module():
    """The module with ``table_sheet_pdf`` and ``series_sheets_pdf``, or None when none is installed."""
    import importlib

    for name in PDF_MODULES:
        try:
            return importlib.import_module(name)
        except ModuleNotFoundError as error:
            if error.name != name:
                raise
    return None


def measure_sheet_pdf(ctx: Context) -> Result:
    pdf = _pdf_module()
    if pdf is None:
        return not_available("scoring.pdf", target=0.100)
    table_sheet_pdf = pdf.table_sheet_pdf
    table = ctx.tournament.series.order_by("number").first().tables.order_by("number").first()
    return Result(median_time(lambda: table_sheet_pdf(table, filled=True), ctx.repeat), target=0.100)


def measure_series_pdf(ctx: Context) -> Result:
    pdf = _pdf_module()
    if pdf is None:
        return not_available("scoring.pdf", target=12.0)
    series_sheets_pdf = pdf.series_sheets_pdf
    series = ctx.tournament.series.order_by("number").first()

    def run() -> None:
        series_sheets_pdf(series, filled=True, out=io.BytesIO())

    return Result(
        median_time(run, min(ctx.repeat, 3), warm=False),
        target=12.0,
        note=f"{series.tables.count()} sheets, filled",
    )


def measure_league_xlsx(ctx: Context) -> Result:
    try:
        from scoring.exports import league_xlsx
    except ModuleNotFoundError as error:
        if error.name != "scoring.exports":
            raise
        return not_available("scoring.exports", target_ratio=1.3)
    tournament = ctx.tournament
    repeat = min(ctx.repeat, 3)
    games = Game.objects.filter(table__series__tournament=tournament).count()
    median = median_time(lambda: league_xlsx(tournament, io.BytesIO()), repeat, warm=False)
    floor = median_time(lambda: xlsx_floor(synthetic_rows(games), io.BytesIO()), repeat, warm=False)
    ctx.cache["xlsx"] = lambda: league_xlsx(tournament, io.BytesIO())
    return Result(median, floor=floor, target_ratio=1.3, note=f"{games} rows; floor: bare openpyxl write-only")


def measure_league_xlsx_memory(ctx: Context) -> Result:
    try:
        from scoring.exports import league_xlsx
    except ModuleNotFoundError as error:
        if error.name != "scoring.exports":
            raise
        return not_available("scoring.exports", target=300 * MB, unit="B")
    tournament = ctx.tournament
    _seconds, peak, baseline = peak_memory(lambda: league_xlsx(tournament, io.BytesIO()))
    return Result(
        peak,
        target=300 * MB,
        unit="B",
        note=f"peak RSS of a process that only exports; at start {baseline / MB:.0f} MB",
    )


#: The figures, in the order printed. A new one is a name and a function of the Context.
FIGURES: list[FigureDef] = [
    FigureDef("overall standings", measure_standings),
    FigureDef("enter one game through the table link", measure_entry),
    FigureDef("draw a series at random", measure_draw(seeded=False)),
    FigureDef("draw a series seeded", measure_draw(seeded=True)),
    FigureDef("one filled scoresheet PDF", measure_sheet_pdf),
    FigureDef("all scoresheets of a series PDF", measure_series_pdf),
    FigureDef("league XLSX of the tournament", measure_league_xlsx),
    FigureDef("league XLSX peak memory", measure_league_xlsx_memory),
]


# --- floors and helpers for the exports -------------------------------------------------------------

XLSX_COLUMNS = 14


def synthetic_rows(count: int, columns: int = XLSX_COLUMNS) -> Iterator[tuple]:
    """Rows shaped like the league export's (text, dates, numbers), made without the database."""
    date = datetime.date(2026, 11, 23)
    contracts = ("diamonds", "hearts", "spades", "clubs", "grand", "null")
    for i in range(count):
        row = (
            "Bench 3000",
            date,
            i % 3 + 1,
            i // 48 % 750 + 1,
            i % 48 + 1,
            f"Player {i % 3000:04d}",
            f"Bench club {i % 200:03d}",
            contracts[i % 6],
            i % 4 + 1,
            i % 120,
            (i % 200) - 90,
            i % 2 == 0,
            i % 7 == 0,
            "bench",
        )
        yield row[:columns]


def xlsx_floor(rows: Iterable[Sequence], out) -> None:
    """The cheapest XLSX openpyxl writes: write-only mode, one sheet, the rows as given."""
    from openpyxl import Workbook

    workbook = Workbook(write_only=True)
    sheet = workbook.create_sheet("Games")
    for row in rows:
        sheet.append(row)
    workbook.save(out)


def peak_memory(run: Callable[[], object]) -> tuple[float, int, int]:
    """Run ``run`` in a forked child process: (seconds, peak RSS, RSS at start) in bytes.

    The child resets its peak RSS after the fork (Linux /proc/self/clear_refs), so the
    figure is the whole process's high-water mark while it does only this work: what a
    server worker needs. Where /proc is missing, tracemalloc's peak of Python
    allocations is the fallback (lower: it misses C allocations).
    """
    if not Path("/proc/self/status").exists() or not hasattr(os, "fork"):
        import tracemalloc

        tracemalloc.start()
        start = time.perf_counter()
        run()
        seconds = time.perf_counter() - start
        _current, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        return seconds, peak, 0

    connections.close_all()  # the child opens its own connection
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child reports through the pipe
        code = 0
        try:
            os.close(read)
            with suppress(OSError):
                Path("/proc/self/clear_refs").write_text("5")
            baseline = _status_kb("VmRSS")
            start = time.perf_counter()
            run()
            seconds = time.perf_counter() - start
            os.write(write, f"{seconds} {_status_kb('VmHWM')} {baseline}".encode())
        except BaseException:
            code = 1
        finally:
            os._exit(code)
    os.close(write)
    with os.fdopen(read) as pipe:
        answer = pipe.read()
    _pid, status = os.waitpid(pid, 0)
    if not answer or os.waitstatus_to_exitcode(status) != 0:
        raise RuntimeError("the measured run failed in the child process")
    seconds, peak_kb, baseline_kb = answer.split()
    return float(seconds), int(peak_kb) * 1024, int(baseline_kb) * 1024


def _status_kb(key: str) -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(key + ":"):
            return int(line.split()[1])
    return 0


# --- the report ---------------------------------------------------------------------------------------


def format_value(value: float | None, unit: str) -> str:
    if value is None:
        return "-"
    if unit == "B":
        return f"{value / MB:.0f} MB"
    if value < 1:
        return f"{value / MS:.1f} ms"
    return f"{value:.2f} s"


def format_target(result: Result) -> str:
    parts = []
    if result.target is not None:
        parts.append(f"<= {format_value(result.target, result.unit)}")
    if result.target_ratio is not None:
        parts.append(f"<= {result.target_ratio:g}x floor")
    return ", ".join(parts) or "-"


def report(rows: Sequence[tuple[str, Result]]) -> str:
    """One table: figure, median, floor, ratio, target, pass/fail, note."""
    header = ("figure", "median", "floor", "ratio", "target", "ok", "note")
    lines = [header]
    for name, r in rows:
        if not r.available:
            lines.append((name, "-", "-", "-", format_target(r), "n/a", r.note))
            continue
        lines.append(
            (
                name,
                format_value(r.median, r.unit),
                format_value(r.floor, r.unit),
                f"{r.ratio:.2f}x" if r.ratio is not None else "-",
                format_target(r),
                "pass" if r.ok else "FAIL",
                r.note,
            )
        )
    widths = [max(len(line[i]) for line in lines) for i in range(len(header) - 1)]
    out = []
    for n, line in enumerate(lines):
        out.append("  ".join(cell.ljust(width) for cell, width in zip(line, widths, strict=False)) + "  " + line[-1])
        if n == 0:
            out.append("  ".join("-" * width for width in widths) + "  " + "-" * 4)
    return "\n".join(line.rstrip() for line in out)
